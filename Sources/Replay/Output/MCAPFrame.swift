import Export
import Frames
import POIARCore

extension FrameRecord {
    /// The frame as the MCAP file takes it (`--mcap`): a dot at every POI in sight on the image
    /// (with a card, a marker, or known to be behind a building), each card with its leader and
    /// text, then the cluster cards; a map view shows none.
    var exported: ExportedFrame {
        guard !isMapView else { return ExportedFrame(time: time, logLine: logLine, dots: [], cards: []) }
        let dots = annotations.compactMap { a -> ExportedFrame.Dot? in
            guard let anchor = a.anchor, camera.isOnImage(anchor), a.visible || a.marker != nil || a.occluded == true else { return nil }
            return ExportedFrame.Dot(anchor: anchor, category: a.poi.category, hidden: a.occluded == true)
        }
        let cards = annotations.compactMap { a -> ExportedFrame.Card? in
            guard a.visible, let box = a.box else { return nil }
            return ExportedFrame.Card(box: box, category: a.poi.category, text: "\(a.poi.labelText) · \(a.detail)", leaderFrom: a.anchor)
        }
        let clusterCards = clusters.map {
            ExportedFrame.Card(box: $0.box, category: $0.category, text: "\($0.name) · \($0.detail)", leaderFrom: nil)
        }
        return ExportedFrame(time: time, logLine: logLine, dots: dots, cards: cards + clusterCards)
    }
}
