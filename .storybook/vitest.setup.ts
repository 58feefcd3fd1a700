import { configure } from 'storybook/test';
import { setProjectAnnotations } from '@storybook/react-vite';
import * as a11yAnnotations from '@storybook/addon-a11y/preview';
import * as projectAnnotations from './preview';

// The story tests run with the same decorators, loaders and accessibility checks as Storybook.
setProjectAnnotations([a11yAnnotations, projectAnnotations]);

// A story waits for what the app shows after its mocked calls answer and its chunks load.
// One second (the default) is too short on a busy 2-core CI machine; a real failure still
// fails, only later.
configure({ asyncUtilTimeout: 5000 });
