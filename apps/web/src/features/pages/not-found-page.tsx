import { Button, EmptyState } from '@mates/ui';
import { href } from '../../app/paths';

/** Any path the route table does not know. */
export function NotFoundPage() {
  return (
    <EmptyState
      title="This page does not exist"
      description="The link may be old, or mistyped."
      action={
        <a href={href('/')}>
          <Button variant="soft" tabIndex={-1}>
            Back to discover
          </Button>
        </a>
      }
    />
  );
}
