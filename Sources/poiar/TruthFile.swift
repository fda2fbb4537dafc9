import Evaluation
import Foundation
import PhoneImport
import POIARCore

/// `--truth FILE` of `evaluate`, `report` and `replay --report`: a pose CSV (time,qw,qx,qy,qz
/// [,movement], plain or .gz), or the phone's own orientation in a Sensor Logger export
/// (device → ENU, on the recording's clock, the one used when the export is fused). When `log`
/// is the same export, the import's notices are left to the log's reading. `trueNorthAdvice`:
/// when this command fuses the poses to true north, what its user can give to compare them
/// with a truth in magnetic north (the command's own options); nil when the poses are in
/// magnetic north already, or not fused here (`report`).
func readTruth(_ truth: String, log: String?, trueNorthAdvice: String?) throws -> PoseSeries {
    var isFolder: ObjCBool = false
    if !(FileManager.default.fileExists(atPath: truth, isDirectory: &isFolder) && isFolder.boolValue) {
        try InputFile.checkRegular(truth, what: "the truth")  // its kind is told from its start, then it is read
    }
    guard PhoneRecording.isPhoneOrientation(path: truth) else { return try PoseSeries.read(path: truth, movementColumn: true) }
    var notices: [String] = []
    let phone = try PhoneRecording.orientation(path: truth) { notices.append($0) }
    let standard = { (p: String) in URL(fileURLWithPath: p).standardizedFileURL.path }
    if log.map(standard) != standard(phone.export) { notices.forEach(printNotice) }
    let north = phone.metadata.orientationNorth ?? .unknown
    var note = "truth: the phone's own orientation, \(phone.samples.count) samples, \(north.rawValue) north"
    if log != nil, let trueNorthAdvice, north == .magnetic {
        note += " (poses fused to true north differ from it by the declination: \(trueNorthAdvice))"
    }
    printNotice(note)
    return PoseSeries(times: phone.samples.map(\.time), quaternions: phone.samples.map { Optional($0.attitude) })
}
