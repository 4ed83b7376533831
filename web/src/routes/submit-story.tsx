import { createFileRoute } from '@tanstack/react-router';
import { ComingSoon } from '../components/ComingSoon.tsx';

export const Route = createFileRoute('/submit-story')({
  component: () => <ComingSoon title="Tell a Story">Story submissions open soon. Start thinking about your favourite memory!</ComingSoon>,
});
