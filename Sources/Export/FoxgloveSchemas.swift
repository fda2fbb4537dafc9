import Foundation

/// The JSON Schemas of the MCAP channels poiar writes: Foxglove's well-known schemas (by name;
/// Foxglove picks its panels by the schema name, https://docs.foxglove.dev/docs/visualization/message-schemas)
/// with the fields poiar fills, and poiar's own schema for raw sensor samples.
///
/// Written out here rather than copied from foxglove/schemas: the properties follow Foxglove's
/// definitions (names, units, enum values), trimmed of descriptions.
enum FoxgloveSchemas {
    static let encoding = "jsonschema"

    static let poseInFrame = "foxglove.PoseInFrame"
    static let locationFix = "foxglove.LocationFix"
    static let compressedImage = "foxglove.CompressedImage"
    static let imageAnnotations = "foxglove.ImageAnnotations"
    /// One three-axis sample of the log (gyro, accel or mag), poiar's own schema.
    static let sensorSample = "poiar.SensorSample"

    static func schema(_ name: String) -> [UInt8] {
        let properties: String
        switch name {
        case poseInFrame:
            properties = #""timestamp": \#(time), "frame_id": {"type": "string"}, "pose": {"type": "object", "properties": {"position": \#(vector3("foxglove.Vector3")), "orientation": \#(quaternion)}}"#
        case locationFix:
            properties = #""timestamp": \#(time), "frame_id": {"type": "string"}, "latitude": {"type": "number"}, "longitude": {"type": "number"}, "altitude": {"type": "number"}, "position_covariance": {"type": "array", "items": {"type": "number"}, "minItems": 9, "maxItems": 9}, "position_covariance_type": {"title": "foxglove.PositionCovarianceType", "oneOf": [{"title": "UNKNOWN", "const": 0}, {"title": "APPROXIMATED", "const": 1}, {"title": "DIAGONAL_KNOWN", "const": 2}, {"title": "KNOWN", "const": 3}]}"#
        case compressedImage:
            properties = #""timestamp": \#(time), "frame_id": {"type": "string"}, "data": {"type": "string", "contentEncoding": "base64"}, "format": {"type": "string"}"#
        case imageAnnotations:
            properties = #""circles": {"type": "array", "items": {"title": "foxglove.CircleAnnotation", "type": "object", "properties": {"timestamp": \#(time), "position": \#(point2), "diameter": {"type": "number"}, "thickness": {"type": "number"}, "fill_color": \#(color), "outline_color": \#(color)}}}, "points": {"type": "array", "items": {"title": "foxglove.PointsAnnotation", "type": "object", "properties": {"timestamp": \#(time), "type": {"title": "foxglove.PointsAnnotationType", "oneOf": [{"title": "UNKNOWN", "const": 0}, {"title": "POINTS", "const": 1}, {"title": "LINE_LOOP", "const": 2}, {"title": "LINE_STRIP", "const": 3}, {"title": "LINE_LIST", "const": 4}]}, "points": {"type": "array", "items": \#(point2)}, "outline_color": \#(color), "outline_colors": {"type": "array", "items": \#(color)}, "fill_color": \#(color), "thickness": {"type": "number"}}}}, "texts": {"type": "array", "items": {"title": "foxglove.TextAnnotation", "type": "object", "properties": {"timestamp": \#(time), "position": \#(point2), "text": {"type": "string"}, "font_size": {"type": "number"}, "text_color": \#(color), "background_color": \#(color)}}}"#
        case sensorSample:
            properties = #""timestamp": \#(time), "sensor": {"type": "string", "enum": ["gyro", "accel", "mag"]}, "x": {"type": "number"}, "y": {"type": "number"}, "z": {"type": "number"}, "unit": {"type": "string", "description": "rad/s (gyro), m/s² (accel, gravity included), µT (mag); device frame: x right, y up the screen, z out of it"}"#
        default:
            preconditionFailure("FoxgloveSchemas: no schema \(name)")
        }
        return Array(#"{"title": "\#(name)", "type": "object", "properties": {\#(properties)}}"#.utf8)
    }

    private static let time = #"{"type": "object", "title": "time", "properties": {"sec": {"type": "integer", "minimum": 0}, "nsec": {"type": "integer", "minimum": 0, "maximum": 999999999}}}"#
    private static func vector3(_ title: String) -> String {
        #"{"title": "\#(title)", "type": "object", "properties": {"x": {"type": "number"}, "y": {"type": "number"}, "z": {"type": "number"}}}"#
    }
    private static let quaternion = #"{"title": "foxglove.Quaternion", "type": "object", "properties": {"x": {"type": "number"}, "y": {"type": "number"}, "z": {"type": "number"}, "w": {"type": "number"}}}"#
    private static let point2 = #"{"title": "foxglove.Point2", "type": "object", "properties": {"x": {"type": "number"}, "y": {"type": "number"}}}"#
    private static let color = #"{"title": "foxglove.Color", "type": "object", "properties": {"r": {"type": "number"}, "g": {"type": "number"}, "b": {"type": "number"}, "a": {"type": "number"}}}"#
}
