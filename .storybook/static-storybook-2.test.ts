import { checkStaticStorybook } from './static-storybook';

// The static Storybook in the manager, share 2 of 2 (see `static-storybook.ts`).
checkStaticStorybook(1, 2);
