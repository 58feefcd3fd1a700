import { textsFor, type SentenceKey } from '../i18n/texts';

type Unplural<K> = K extends `${infer Base}_${'one' | 'other'}` ? Base : K;

/** A sentence a ledger row's reason is said with (`ledger.reasons.chat`, `ledger.parts.plan`…). */
export type ReasonKey = Unplural<Extract<SentenceKey, `ledger.${string}`>>;

/**
 * One of the server's own reasons: its sentence and the values it is said with. A value may
 * be a reason itself (a refund "of" a plan, an amount already spent), said in the same
 * language; names of packages and plans are the product's, kept as written.
 */
export interface KeyedReason {
  key: ReasonKey;
  args?: ReasonArgs;
}

/** The values a reason's sentence is said with (`count` picks its plural). */
export type ReasonArgs = { [name: string]: string | number | KeyedReason };

/** Why a ledger row was written: one of the server's reasons, or an operator's own words. */
export type Reason = KeyedReason | { text: string };

/** What a ledger row stores of its reason: the English words, and the key and values if any. */
export interface StoredReason {
  reason: string;
  reason_key: string | null;
  reason_args: string | null;
}

/** `reason` as stored: English words (what exports and logs read) and its key and values. */
export function storedReason(reason: Reason): StoredReason {
  if ('text' in reason) return { reason: reason.text, reason_key: null, reason_args: null };
  return {
    reason: sayReason('en', reason),
    reason_key: reason.key,
    reason_args: reason.args ? JSON.stringify(reason.args) : null,
  };
}

/** A keyed reason said in `language` (any language the server does not speak gets English). */
export function sayReason(language: string, reason: KeyedReason): string {
  const t = textsFor(language);
  const say = (said: KeyedReason): string => {
    const values = Object.fromEntries(
      Object.entries(said.args ?? {}).map(([name, value]) => [
        name,
        typeof value === 'object' ? say(value) : value,
      ]),
    );
    return t(said.key, values);
  };
  return say(reason);
}

/**
 * A stored row's reason in `language`: its sentence when it has a key (rows the server wrote
 * since keys are kept, and older rows of a fixed sentence), else the words stored.
 */
export function reasonIn(
  language: string,
  row: { reason: string; reason_key?: string | null; reason_args?: string | null },
): string {
  if (!row.reason_key) return row.reason;
  let args: ReasonArgs | undefined;
  try {
    args = row.reason_args ? (JSON.parse(row.reason_args) as ReasonArgs) : undefined;
  } catch {
    return row.reason;
  }
  const said = sayReason(language, { key: row.reason_key as ReasonKey, ...(args && { args }) });
  // A key this server no longer knows is answered as itself: the stored words say more.
  return said === row.reason_key ? row.reason : said;
}
