import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { QueryClientProvider } from '@tanstack/react-query';
import { ThemeProvider } from '@mates/ui';
import { createServices } from './app/services';
import { ServicesProvider } from './app/services-context';
import { createRouter } from './app/router';
import { runDiscordGuard } from './app/discord-guard';

const router = createRouter();
const services = createServices({
  apiBase: import.meta.env.VITE_API_BASE ?? '/api',
  storage: window.localStorage,
  navigate: (path) => void router.navigate(path),
  reload: () => window.location.reload(),
});

void runDiscordGuard(services, window.location);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ThemeProvider theme="dark">
      <ServicesProvider services={services}>
        <QueryClientProvider client={services.queries}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </ServicesProvider>
    </ThemeProvider>
  </StrictMode>,
);
