import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { QueryClientProvider } from '@tanstack/react-query';
import { Toaster, TooltipProvider, createQueryClient } from '@wordcut/ui';
import { App } from './App';
import { remotesConfig } from './remotes';

// Start fetching /remotes.json at once; remote slots wait for it, the shell chrome does not.
remotesConfig().catch((err: unknown) => console.error('[shell] could not load the remotes configuration', err));

const queryClient = createQueryClient();
const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');

createRoot(container).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <TooltipProvider>
        <BrowserRouter>
          <App />
        </BrowserRouter>
        <Toaster />
      </TooltipProvider>
    </QueryClientProvider>
  </StrictMode>,
);
