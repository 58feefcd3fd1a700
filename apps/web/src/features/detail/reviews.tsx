import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSelector } from '@xstate/store-react';
import type { Mate, MateExtraInfo, Review } from '@mates/api-client';
import { Button, Card, Heading, Rating, Stack, Text, TextArea } from '@mates/ui';
import { useServices } from '../../lib/services-context';
import { mateKeys } from '../../lib/query-keys';
import { useSignedIn } from '../../components/sign-in-gate';
import { errorText } from '../../i18n/error-text';

/** The mate's rating, its latest reviews, and (signed in) a form to post one. */
export function Reviews({ mate, extra }: { mate: Mate; extra: MateExtraInfo }) {
  const { t, i18n } = useTranslation();
  const { reviewSummary, recentReviews } = extra;
  const stars = (count: number) => t('detail.stars', { count });
  return (
    <Stack gap={3} as="section" aria-labelledby="detail-reviews">
      <Heading as="h2" size={2} id="detail-reviews">
        {t('detail.reviews')}
      </Heading>
      {reviewSummary.count === 0 ? (
        <Text tone="muted">{t('detail.noReviews')}</Text>
      ) : (
        <Stack gap={1}>
          <Rating
            label={t('detail.average')}
            value={Math.round(reviewSummary.average ?? 0)}
            starLabel={stars}
          />
          <Text tone="muted" size={2}>
            {t('detail.averageText', {
              average: new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 }).format(
                reviewSummary.average ?? 0,
              ),
              count: reviewSummary.count,
            })}
          </Text>
        </Stack>
      )}
      {recentReviews.map((review) => (
        <Card key={review.reviewId}>
          <Text weight="bold">{review.author.name}</Text>
          <Rating
            label={t('detail.ratingOf', { name: review.author.name })}
            value={review.rating}
            starLabel={stars}
          />
          {review.content && <Text tone="muted">{review.content}</Text>}
        </Card>
      ))}
      {useSignedIn() && <ReviewForm mate={mate} recent={recentReviews} />}
    </Stack>
  );
}

/**
 * The person's review: empty to write one, or theirs (one per person and mate) to change.
 * Theirs is found among the recent reviews, or is the one they just posted.
 */
function ReviewForm({ mate, recent }: { mate: Mate; recent: Review[] }) {
  const { t } = useTranslation();
  const { client, notices, store } = useServices();
  const queries = useQueryClient();
  const uuid = useSelector(store, (state) => state.context.userInfo.uuid);
  const [posted, setPosted] = useState<Review | null>(null);
  const mine = posted ?? recent.find((review) => review.author.creatorId === uuid) ?? null;
  const [rating, setRating] = useState(mine?.rating ?? 0);
  const [content, setContent] = useState(mine?.content ?? '');
  // The recent reviews arrive after the form: once theirs shows up, it fills the form.
  const [filledFrom, setFilledFrom] = useState(mine?.reviewId ?? null);
  if (mine && filledFrom !== mine.reviewId) {
    setFilledFrom(mine.reviewId);
    setRating(mine.rating);
    setContent(mine.content);
  }
  const [problem, setProblem] = useState('');
  const post = useMutation({
    mutationFn: () => client.mate.review({ mateId: mate.mateId, rating, content }),
    onSuccess: (review) => {
      // What was posted stays in the form, as the person's review, to change later.
      setPosted(review);
      setFilledFrom(review.reviewId);
      notices.trigger.added({ tone: 'positive', message: t('detail.reviewSent') });
      return queries.invalidateQueries({ queryKey: mateKeys.extra(mate.mateId) });
    },
    // The server's refusal shows by the form; what was typed stays.
    onError: (error) => setProblem(errorText(error, t)),
  });
  return (
    <Card
      as="form"
      aria-labelledby="detail-review-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (rating === 0) return setProblem(t('detail.pickRating'));
        setProblem('');
        post.mutate();
      }}
    >
      <Heading as="h3" size={1} id="detail-review-form">
        {t('detail.writeReview')}
      </Heading>
      {mine && <Text tone="muted">{t('detail.reviewExists')}</Text>}
      <Rating
        label={t('detail.yourRating')}
        value={rating}
        onValueChange={setRating}
        starLabel={(count) => t('detail.stars', { count })}
      />
      {problem && (
        <Text tone="danger" role="alert">
          {problem}
        </Text>
      )}
      <TextArea
        label={t('detail.reviewText')}
        value={content}
        maxLength={2000}
        onChange={(event) => setContent(event.target.value)}
      />
      <Button type="submit" aria-busy={post.isPending}>
        {mine ? t('detail.updateReview') : t('detail.sendReview')}
      </Button>
    </Card>
  );
}
