import { useMemo } from 'react';
import { encode } from 'uqr';

/**
 * The gallery's address as a QR code, for the big screen: a colleague in the room points a phone at it
 * and lands on the gallery's door (decision 098). The password stays spoken, never printed. Dark
 * modules on white whatever the theme, with the quiet zone scanners need.
 */
export function JoinCode({ url }: { url: string }) {
  const { size, path } = useMemo(() => {
    const code = encode(url, { ecc: 'M', border: 2 });
    const modules = code.data.flatMap((row, y) => row.map((dark, x) => (dark ? `M${x} ${y}h1v1h-1z` : '')));
    return { size: code.size, path: modules.join('') };
  }, [url]);
  const host = new URL(url).host;
  return (
    <figure className="flex items-center gap-3 rounded-2xl bg-white/80 p-2 pr-4 shadow-sm backdrop-blur dark:bg-stone-800/80">
      <svg
        viewBox={`0 0 ${size} ${size}`}
        role="img"
        aria-label={`QR code: ${url}`}
        data-join-url={url}
        shapeRendering="crispEdges"
        className="h-20 w-20 rounded-md lg:h-28 lg:w-28"
      >
        <rect width={size} height={size} fill="#ffffff" />
        <path d={path} fill="#000000" />
      </svg>
      <figcaption className="text-left text-sm leading-snug text-stone-700 lg:text-base dark:text-stone-200">
        <span className="block font-semibold">Join from your phone</span>
        <span className="block font-mono text-xs lg:text-sm">{host}</span>
      </figcaption>
    </figure>
  );
}
