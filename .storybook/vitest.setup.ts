import { setProjectAnnotations } from '@storybook/react-vite';
import * as a11yAnnotations from '@storybook/addon-a11y/preview';
import * as projectAnnotations from './preview';

// The story tests run with the same decorators, loaders and accessibility checks as Storybook.
setProjectAnnotations([a11yAnnotations, projectAnnotations]);
