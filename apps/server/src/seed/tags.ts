/** The tag map: groups of tags, in display order. Keys are stable; labels are English. */
export const TAG_GROUPS: { key: string; label: string; tags: [key: string, label: string][] }[] = [
  {
    key: 'genre',
    label: 'Genre',
    tags: [
      ['fantasy', 'Fantasy'],
      ['sci-fi', 'Sci-fi'],
      ['romance', 'Romance'],
      ['mystery', 'Mystery'],
      ['horror', 'Horror'],
      ['adventure', 'Adventure'],
      ['slice-of-life', 'Slice of life'],
      ['historical', 'Historical'],
      ['comedy', 'Comedy'],
      ['drama', 'Drama'],
      ['supernatural', 'Supernatural'],
    ],
  },
  {
    key: 'role',
    label: 'Role',
    tags: [
      ['friend', 'Friend'],
      ['mentor', 'Mentor'],
      ['rival', 'Rival'],
      ['partner', 'Partner'],
      ['villain', 'Villain'],
      ['guide', 'Guide'],
    ],
  },
  {
    key: 'setting',
    label: 'Setting',
    tags: [
      ['modern', 'Modern day'],
      ['medieval', 'Medieval'],
      ['space', 'Space'],
      ['city', 'City'],
      ['academy', 'School & academy'],
      ['sea', 'Sea'],
      ['wilderness', 'Wilderness'],
      ['cyberpunk', 'Cyberpunk'],
      ['post-apocalyptic', 'Post-apocalyptic'],
    ],
  },
  {
    key: 'mood',
    label: 'Mood',
    tags: [
      ['wholesome', 'Wholesome'],
      ['flirty', 'Flirty'],
      ['dark', 'Dark'],
      ['cozy', 'Cozy'],
      ['witty', 'Witty'],
      ['mysterious', 'Mysterious'],
    ],
  },
];
