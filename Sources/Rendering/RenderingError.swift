/// A failure while drawing or writing output that is not a problem with the user's
/// input files (those are `InputError`s naming the file).
public enum RenderingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The output image could not be written to `path`.
    case cannotWrite(path: String, reason: String)
    /// A frame size no surface can have (zero, negative or absurdly large).
    case invalidFrameSize(width: Int, height: Int)
    /// Cairo reported an error (usually out of memory).
    case cairo(String)

    public var description: String {
        switch self {
        case let .cannotWrite(path, reason): "\(path): cannot write PNG: \(reason)"
        case let .invalidFrameSize(width, height): "invalid frame size \(width)×\(height)"
        case let .cairo(message): "drawing failed: \(message)"
        }
    }
}
