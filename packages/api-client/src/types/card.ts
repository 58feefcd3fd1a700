import type { MateDraft } from './mate';

/** Payload of `POST /mate/importCard`: a Character Card as JSON, or a PNG card in base64. */
export type ImportCardPayload =
  | {
      /** A Character Card V2 (or V1/V3) JSON document. */
      card: unknown;
      /** Not used with `card`. */
      png?: undefined;
    }
  | {
      /** A PNG card (a `chara` tEXt chunk holding the card), base64-encoded; at most 8 MB. */
      png: string;
      /** Not used with `png`. */
      card?: undefined;
    };

/** Every file format `GET /mate/exportCard` writes; the first is the default. */
export const CARD_FORMATS = ['json', 'png'] as const;

/** The file format of an exported card. */
export type CardFormat = (typeof CARD_FORMATS)[number];

/** Every Character Card spec version `GET /mate/exportCard` writes: V2 and V3. */
export const CARD_SPECS = ['v2', 'v3'] as const;

/** A Character Card spec version: `v2` (`chara_card_v2`) or `v3` (`chara_card_v3`). */
export type CardSpec = (typeof CARD_SPECS)[number];

/** Query of `GET /mate/exportCard`. */
export interface ExportCardQuery {
  /** One of the caller's own mates. */
  mateId: string;
  /** `json` (default) or `png` (the portrait with the card inside). */
  format?: CardFormat;
  /**
   * The spec of a JSON export: `v3` for a mate imported from a V3 card, else `v2` by default.
   * A PNG carries both (V2 in `chara`, V3 in `ccv3`).
   */
  spec?: CardSpec;
}

/** A file to save, as `GET /mate/exportCard` answers it. */
export interface CardFile {
  /** A file name, e.g. `Lyra Moonwhisper.png`. */
  filename: string;
  /** `application/json` or `image/png`. */
  mimeType: string;
  /** The file's bytes, base64-encoded. */
  data: string;
}

/** Every card spec `POST /mate/previewCard` recognises. */
export const CARD_SOURCE_SPECS = ['v1', 'v2', 'v3'] as const;

/** The spec a card was written in: V1 (bare fields), V2 (`chara_card_v2`) or V3 (`chara_card_v3`). */
export type CardSourceSpec = (typeof CARD_SOURCE_SPECS)[number];

/**
 * Answer of `POST /mate/previewCard` (the same payload as `POST /mate/importCard`): what an
 * import would create, without creating anything.
 */
export interface CardPreview {
  /** The mate the import would create, as the editor shows it. */
  draft: MateDraft;
  /** The spec the card was written in. */
  spec: CardSourceSpec;
  /** The card's own `creator` (kept on export), or empty. */
  creator: string;
  /** Whether the PNG's picture becomes the portrait (otherwise one is drawn). */
  portraitFromCard: boolean;
  /**
   * What the card carries that Mates keeps (so it exports again) but does not use in chats, in
   * plain words, e.g. `Lorebook "Harbor" (12 entries)`; empty when everything is used.
   */
  unused: string[];
  /** Tags of the card that are not Mates tags and will be dropped. */
  droppedTags: string[];
}
