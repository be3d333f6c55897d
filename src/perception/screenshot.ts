// A captured image of a screen and its size in pixels: what computers produce, what the
// model sees (possibly scaled), and what frames store.

export interface Screenshot {
  data: Buffer;
  mimeType: "image/jpeg" | "image/png";
  width: number;
  height: number;
}
