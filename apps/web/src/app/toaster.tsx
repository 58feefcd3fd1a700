// The notifications' component in a chunk of its own: the layout loads it with the first one.
export { Toaster as default } from '@mates/ui';
