import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { USER_FEEDBACK_CATEGORIES, type UserFeedbackCategory } from '@mates/api-client';
import { Button, Card, Link, Select, Text, TextArea, TextField } from '@mates/ui';
import { useServices } from '../../lib/services-context';
import { href } from '../../lib/paths';
import { Page } from '../../components/page';
import { errorText } from '../../i18n/error-text';

/** `/support`: how to reach a person, and a form that sends feedback through `/user/feedback`. */
export function SupportPage() {
  const { t } = useTranslation();
  const { client, notices } = useServices();
  const [category, setCategory] = useState<UserFeedbackCategory>('bug');
  const [content, setContent] = useState('');
  const [contact, setContact] = useState('');
  const [problem, setProblem] = useState('');
  const [sent, setSent] = useState(false);
  const send = useMutation({
    mutationFn: () =>
      client.user.feedback({
        category,
        content: content.trim(),
        ...(contact.trim() ? { contact: contact.trim() } : {}),
      }),
    onSuccess: () => {
      setContent('');
      setSent(true);
      notices.trigger.added({ tone: 'positive', message: t('support.sent') });
    },
    // The server's refusal shows by the form; what was typed stays.
    onError: (error) => setProblem(errorText(error, t)),
  });
  return (
    <Page title={t('support.title')}>
      <Text>{t('support.intro')}</Text>
      <Link href={href('/faq')}>{t('support.faqLink')}</Link>
      <Card
        as="form"
        aria-label={t('support.title')}
        onSubmit={(event) => {
          event.preventDefault();
          if (!content.trim()) return setProblem(t('support.missing'));
          setProblem('');
          send.mutate();
        }}
      >
        <Select
          label={t('support.category')}
          value={category}
          onValueChange={(value) => setCategory(value as UserFeedbackCategory)}
          options={USER_FEEDBACK_CATEGORIES.map((value) => ({
            value,
            label: t(`support.categories.${value}`),
          }))}
        />
        <TextArea
          label={t('support.content')}
          value={content}
          maxLength={5000}
          error={problem || undefined}
          onChange={(event) => {
            setSent(false);
            setContent(event.target.value);
          }}
        />
        <TextField
          label={t('support.contact')}
          type="email"
          autoComplete="email"
          value={contact}
          onChange={(event) => setContact(event.target.value)}
        />
        <Button type="submit" aria-busy={send.isPending}>
          {t('support.send')}
        </Button>
        <div role="status">{sent && <Text tone="accent">{t('support.sent')}</Text>}</div>
      </Card>
    </Page>
  );
}
