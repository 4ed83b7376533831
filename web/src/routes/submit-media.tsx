import { createFileRoute } from '@tanstack/react-router';
import { ComingSoon } from '../components/ComingSoon.tsx';

export const Route = createFileRoute('/submit-media')({
  component: () => <ComingSoon title="Add Media">Video and audio uploads open soon.</ComingSoon>,
});
