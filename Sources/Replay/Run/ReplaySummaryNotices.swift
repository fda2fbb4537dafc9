import Foundation

extension ReplaySummary {
    /// What a replay tells the user when it is done, a line each: with `stats`, how calm the
    /// labels were and the drawing time; the frames' outcomes; the labels (unless every frame
    /// was a map); the MCAP file; the run; each extra file written.
    public func notices(stats withStats: Bool) -> [String] {
        var lines: [String] = []
        if withStats {
            lines.append(stats.description)
            lines.append(labels.timing(drawingSeconds: drawingSeconds, framesDrawn: rendered))
        }
        // A shard's figures are of its frames: said so, with how many of the run's those are.
        if let shard {
            lines.append(outcomes.description(counted: "shard \(shard): \(outcomes.total) of the run's \(frames) frames"))
            if labels.cameraViewFrames > 0 { lines.append("shard \(shard), " + labels.description) }
        } else {
            lines.append(outcomes.description)
            if labels.cameraViewFrames > 0 { lines.append(labels.description) }
        }
        if let mcap { lines.append(mcap.description) }
        lines.append(report)
        lines += extras
        return lines
    }
}
