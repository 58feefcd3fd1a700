/** The creators of the seed catalog: accounts that cannot sign in (no password). */
export const CREATORS: {
  key: string;
  nickname: string;
  bio: string;
  style: 'lorelei' | 'notionists';
}[] = [
  {
    key: 'wren',
    nickname: 'Wren Calloway',
    bio: 'I write characters who remember what you told them.',
    style: 'notionists',
  },
  {
    key: 'oskar',
    nickname: 'Oskar Lindqvist',
    bio: 'Science fiction, slow burns and ships that creak.',
    style: 'notionists',
  },
  {
    key: 'amara',
    nickname: 'Amara Okafor',
    bio: 'Cozy worlds, kind people, strong tea.',
    style: 'lorelei',
  },
  {
    key: 'jun',
    nickname: 'Jun Takeda',
    bio: 'Mysteries with fair clues and rivals worth beating.',
    style: 'notionists',
  },
  {
    key: 'ines',
    nickname: 'Inés Robles',
    bio: 'Gothic romance and things that go bump at midnight.',
    style: 'lorelei',
  },
  {
    key: 'hollis',
    nickname: 'Hollis Grey',
    bio: 'Adventure first, questions later.',
    style: 'notionists',
  },
];
