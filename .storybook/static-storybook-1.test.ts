import { checkStaticStorybook } from './static-storybook';

// The static Storybook in the manager, share 1 of 2 (see `static-storybook.ts`).
checkStaticStorybook(0, 2);
