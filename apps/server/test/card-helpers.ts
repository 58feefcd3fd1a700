/**
 * A Character Card V2 as SillyTavern writes it, of a mate who keeps a harbour light, with `data`
 * changed as a test needs (its lorebook, its post-history instructions).
 */
export function wrenCard<Data extends object>(data: Data = {} as Data) {
  return {
    spec: 'chara_card_v2',
    spec_version: '2.0',
    data: {
      name: 'Wren',
      description: '{{char}} keeps the harbour light.',
      personality: 'terse',
      scenario: '',
      first_mes: 'Evening, {{user}}.',
      mes_example: '',
      creator_notes: '',
      system_prompt: '',
      post_history_instructions: '',
      alternate_greetings: [],
      tags: [],
      creator: 'someone',
      character_version: '1',
      extensions: {},
      ...data,
    },
  };
}
