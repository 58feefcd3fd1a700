import type { Deps } from '../http/context';
import { mediaOf } from '../media/media-of';
import { resumeAccountDeletions } from './account-deletion-service';
import { removeExpiredExports } from './data-export-service';

/**
 * What a start completes of "Your data": deletions a kill interrupted (accounts still marked
 * as closing) and data zips past their time. A failure is logged and never stops the server:
 * the next start tries again.
 */
export async function finishPrivacyLeftovers(
  deps: Pick<Deps, 'db' | 'dialect' | 'jobs' | 'config' | 'log'>,
): Promise<void> {
  const media = mediaOf(deps.config);
  try {
    const deleted = await resumeAccountDeletions({ ...deps, media });
    if (deleted) deps.log.info(`completed ${deleted} account deletion(s) a stop had interrupted`);
  } catch (error) {
    deps.log.error(
      { err: error },
      `an interrupted account deletion failed again: ${(error as Error).message}`,
    );
  }
  try {
    const removed = await removeExpiredExports({ db: deps.db, media });
    if (removed) deps.log.info(`removed ${removed} expired data export(s)`);
  } catch (error) {
    deps.log.error(
      { err: error },
      `expired data exports were not removed: ${(error as Error).message}`,
    );
  }
}
