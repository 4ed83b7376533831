import { createFileRoute } from '@tanstack/react-router';

export const Route = createFileRoute('/health-check')({
  component: () => <p className="p-6 font-mono">System Status: Operational</p>,
});
