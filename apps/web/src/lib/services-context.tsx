import { createContext, useContext, type ReactNode } from 'react';
import type { Services } from './services';

const ServicesContext = createContext<Services | null>(null);

/** Makes the services available to every screen. */
export function ServicesProvider({
  services,
  children,
}: {
  services: Services;
  children: ReactNode;
}) {
  return <ServicesContext.Provider value={services}>{children}</ServicesContext.Provider>;
}

/** The services made at start. */
export function useServices(): Services {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('useServices() outside ServicesProvider');
  return services;
}
