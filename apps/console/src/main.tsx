import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Router } from 'wouter';
import { ApiError } from './api/client';
import { App } from './app/App';
import './styles.css';

const queries = new QueryClient({
  defaultOptions: {
    queries: {
      // A 4xx will not change by asking again; a network error or a 5xx may.
      retry: (failures, error) => failures < 2 && !(error instanceof ApiError && error.status < 500),
      refetchOnWindowFocus: false,
      staleTime: 5_000,
    },
  },
});

const root = document.getElementById('root');
if (root === null) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queries}>
      <Router base="/console">
        <App />
      </Router>
    </QueryClientProvider>
  </StrictMode>,
);
