/** One legal or help page: a lead paragraph, then titled sections. */
export interface LegalPage {
  title: string;
  updated: string;
  lead: string;
  sections: { heading: string; paragraphs: string[] }[];
}

/** Every legal and help page of one language. */
export interface LegalTexts {
  privacy: LegalPage;
  terms: LegalPage;
  guidelines: LegalPage;
  faq: LegalPage;
}
