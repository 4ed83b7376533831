import { createFileRoute } from '@tanstack/react-router';
import { ComingSoon } from '../components/ComingSoon.tsx';

export const Route = createFileRoute('/create')({
  component: () => <ComingSoon title="Begin Creating">The drawing studio is being set up. Check back soon!</ComingSoon>,
});
