import { createFileRoute } from '@tanstack/react-router';

export const Route = createFileRoute('/health-check')({
  component: HealthCheck,
});

function HealthCheck() {
  return (
    <main className="p-6">
      <h1 className="font-mono text-base font-normal">System Status: Operational</h1>
    </main>
  );
}
