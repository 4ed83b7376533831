// Gallery scroll position and page are kept in session storage when an item is opened (spec §2).
const SCROLL_KEY = 'galleryScrollPosition';
const PAGE_KEY = 'galleryPage';

export function rememberGalleryPosition(page: number): void {
  sessionStorage.setItem(SCROLL_KEY, String(Math.round(window.scrollY)));
  sessionStorage.setItem(PAGE_KEY, String(page));
}

/** The scroll position saved when an item was opened; read once. */
export function takeGalleryScroll(): number | null {
  const saved = sessionStorage.getItem(SCROLL_KEY);
  sessionStorage.removeItem(SCROLL_KEY);
  const y = Number(saved);
  return saved !== null && Number.isFinite(y) ? y : null;
}

/** The gallery page an item was opened from, for Back to Gallery links without ?page. */
export function rememberedGalleryPage(): number | undefined {
  const page = Number(sessionStorage.getItem(PAGE_KEY));
  return Number.isInteger(page) && page > 1 ? page : undefined;
}
