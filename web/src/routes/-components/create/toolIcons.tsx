import type { ReactNode } from 'react';
import type { Tool } from '../../../drawing/tools.ts';
import { LineSvg } from '../../../components/icons.tsx';

const TOOL_PATHS: Record<Tool, ReactNode> = {
  brush: (
    <path d="M9.06 11.9l8.07-8.06a2.85 2.85 0 1 1 4.03 4.03l-8.06 8.08M7.07 14.94c-1.66 0-3 1.35-3 3.02 0 1.33-2.5 1.52-2 2.02 1.08 1.1 2.49 2.02 4 2.02 2.2 0 4-1.8 4-4.04a3.01 3.01 0 0 0-3-3.02z" />
  ),
  spray: (
    <>
      <path d="M9 11h6v10H9zM10 11V8h4v3M12 8V6" />
      <path d="M18 5h.01M21 4h.01M20 7h.01M17 2h.01M21 10h.01" strokeWidth="2.5" />
    </>
  ),
  eraser: (
    <path d="M7 21h10M5.5 14.5l8-8a2 2 0 0 1 2.8 0l3.2 3.2a2 2 0 0 1 0 2.8L13 19a2 2 0 0 1-1.4.6H8.8a2 2 0 0 1-1.4-.6L5.5 17.3a2 2 0 0 1 0-2.8zM9.5 10.5l6 6" />
  ),
  line: <path d="M5 19L19 5" />,
  arrow: <path d="M5 19L19 5M10 5h9v9" />,
  rectangle: <rect x="3.5" y="6" width="17" height="12" rx="1" />,
  circle: <circle cx="12" cy="12" r="8.5" />,
  triangle: <path d="M12 4l9 16H3z" />,
  star: <path d="M12 3l2.7 5.6 6.1.8-4.5 4.2 1.1 6.1L12 16.8l-5.4 2.9 1.1-6.1-4.5-4.2 6.1-.8z" />,
};

export function ToolIcon({ tool, className }: { tool: Tool; className?: string }) {
  return <LineSvg className={className}>{TOOL_PATHS[tool]}</LineSvg>;
}

export const UndoIcon = () => (
  <LineSvg className="h-4 w-4">
    <path d="M9 14L4 9l5-5M4 9h10.5a5.5 5.5 0 0 1 0 11H11" />
  </LineSvg>
);
export const RedoIcon = () => (
  <LineSvg className="h-4 w-4">
    <path d="M15 14l5-5-5-5M20 9H9.5a5.5 5.5 0 0 0 0 11H13" />
  </LineSvg>
);
export const ClearIcon = () => (
  <LineSvg className="h-4 w-4">
    <path d="M3 6h18M8 6V4h8v2M19 6l-1 14H6L5 6M10 11v6M14 11v6" />
  </LineSvg>
);
export const DownloadIcon = () => (
  <LineSvg className="h-4 w-4">
    <path d="M21 15v4a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2v-4M7 10l5 5 5-5M12 15V3" />
  </LineSvg>
);
export const ChevronIcon = ({ open }: { open: boolean }) => (
  <LineSvg className={`h-5 w-5 transition-transform ${open ? 'rotate-180' : ''}`}>
    <path d="M6 9l6 6 6-6" />
  </LineSvg>
);
