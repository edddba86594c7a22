/** Where Debian installs Chromium. */
export declare const CHROMIUM: string;
/** The flags every browser check launches it with. */
export declare const CHROMIUM_ARGS: string[];
