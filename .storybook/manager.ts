import { addons } from 'storybook/manager-api';
import { matesTheme } from './mates-theme';

addons.setConfig({ theme: matesTheme });
