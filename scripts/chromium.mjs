/**
 * Debian's Chromium, as every browser check here launches it: as root on a closed network, so no sandbox, no
 * GPU, and none of Chromium's own background connections (refused here, and slow to fail).
 */
export const CHROMIUM = '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
