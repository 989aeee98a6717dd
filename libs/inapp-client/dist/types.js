/** The shapes the in-app API sends and takes. */
export {};
