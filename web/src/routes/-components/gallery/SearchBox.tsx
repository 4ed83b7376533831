import { useEffect, useRef, useState } from 'react';
import { SearchIcon } from '../../../components/icons.tsx';

const DEBOUNCE_MS = 300;

interface SearchBoxProps {
  value: string;
  onSearch: (query: string) => void;
}

/** Reports the trimmed query once typing pauses for 300 ms. */
export function SearchBox({ value, onSearch }: SearchBoxProps) {
  const [text, setText] = useState(value);

  const reported = useRef(value);

  // The URL can change under the box (back and forward): show what is actually searched then,
  // but never overwrite typing that the box itself reported.
  useEffect(() => {
    if (value !== reported.current) setText(value);
    reported.current = value;
  }, [value]);

  useEffect(() => {
    const query = text.trim();
    if (query === value) return;
    const timer = setTimeout(() => {
      reported.current = query;
      onSearch(query);
    }, DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, value, onSearch]);

  return (
    <div className="relative mx-auto max-w-2xl">
      <label htmlFor="gallery-search" className="sr-only">
        Search
      </label>
      <SearchIcon className="pointer-events-none absolute top-1/2 left-4 h-5 w-5 -translate-y-1/2 text-stone-400" />
      <input
        id="gallery-search"
        type="search"
        value={text}
        onChange={(event) => setText(event.target.value)}
        placeholder="Search artwork, stories, and media..."
        className="field rounded-full py-3 pr-4 pl-12 text-base shadow-md sm:text-lg"
      />
    </div>
  );
}
