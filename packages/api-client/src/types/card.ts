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

/** Query of `GET /mate/exportCard`. */
export interface ExportCardQuery {
  /** One of the caller's own mates. */
  mateId: string;
  /** `json` (default) or `png` (the portrait with the card inside). */
  format?: CardFormat;
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
