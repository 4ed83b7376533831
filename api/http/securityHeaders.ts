import helmet from 'helmet';

/**
 * The response headers every answer carries (docs/decisions/015). The built web app loads only its
 * own hashed files, so scripts and styles come from 'self' alone; images and media may also be the
 * data: and blob: URLs the drawing studio and the upload previews make; socket.io talks to 'self'.
 */
export function securityHeaders({ production }: { production: boolean }) {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        workerSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        // behind the TLS proxy every address is https; in development it would break plain http
        upgradeInsecureRequests: production ? [] : null,
      },
    },
    // Same-origin keeps the Origin header on same-origin POSTs (no-referrer would send "null").
    referrerPolicy: { policy: 'same-origin' },
    strictTransportSecurity: production ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    xFrameOptions: { action: 'deny' },
  });
}
