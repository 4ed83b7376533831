import { createFileRoute } from '@tanstack/react-router';
import { ComingSoon } from '../components/ComingSoon.tsx';
import { gallerySearch, idParams } from '../lib/routeParams.ts';

export const Route = createFileRoute('/media/$id')({
  params: idParams,
  validateSearch: gallerySearch,
  component: () => <ComingSoon title="Media">The media page arrives in a later update.</ComingSoon>,
});
