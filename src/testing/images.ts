/** Images for tests, in Node and Chromium: a real PNG, and image blocks no page may show as images. */

/** A 1×1 red PNG. */
export const RED_PIXEL_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

/** Image blocks no page may show as images: an SVG with a script, HTML called an image, HTML bytes labelled PNG. */
export const HOSTILE_IMAGES: ReadonlyArray<{ mimeType: string; data: string }> = [
  { mimeType: "image/svg+xml", data: btoa('<svg xmlns="http://www.w3.org/2000/svg"><script>parent.hostile=1</script></svg>') },
  { mimeType: "text/html", data: btoa("<img src=x onerror=parent.hostile=1>") },
  { mimeType: "image/png", data: btoa("<script>parent.hostile=1</script>") },
];
