/// Limits on the images poiar draws.
public enum ImageLimits {
    /// The longest side, in pixels, of an image poiar draws: an output frame (`--size`, a
    /// camera's size, times `--scale`) or a map. Cairo's image surfaces go up to 32767 px a
    /// side, but one of 16384 × 16384 already holds 1 GiB of ARGB pixels, and a frame that
    /// size is beyond any use; a larger side is refused before anything is drawn.
    ///
    /// Not a limit on the stills frames are drawn over: a still is scaled into the frame, and
    /// what bounds it is a budget of pixels decoded (`defaultMaxStillPixels` in Rendering).
    public static let maxSide = 16_384
}
