import { MATE_TEXT_LIMITS, type MateTextField } from '@mates/api-client';

/** The text fields of a mate: the keys of the contract's `MATE_TEXT_LIMITS`, the one list of them. */
export const MATE_TEXT_FIELDS = Object.keys(MATE_TEXT_LIMITS) as MateTextField[];

/** The text fields of `source` (a mate's row, a saved draft), and nothing else of it. */
export function textFieldsOf(source: Record<MateTextField, string>): Record<MateTextField, string> {
  return Object.fromEntries(MATE_TEXT_FIELDS.map((field) => [field, source[field]])) as Record<
    MateTextField,
    string
  >;
}
