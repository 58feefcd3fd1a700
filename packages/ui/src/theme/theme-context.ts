import { createContext, useContext } from 'react';
import { SCOPE_CLASS } from './stitches.config';

// The class names a layer the kit portals out of the provider's container (a dialog, a
// select's list, a tooltip) needs to keep the provider's theme and scope; without a provider,
// the default theme's variables are on :root.
const PortalClassName = /* @__PURE__ */ createContext<string>(SCOPE_CLASS);

/** Provides the portal class names to what is inside a `ThemeProvider`. */
export const PortalClassNameProvider = PortalClassName.Provider;

/** The class names to put on each element the kit renders into a portal. */
export function usePortalClassName(): string {
  return useContext(PortalClassName);
}
