import Foundation
import Testing

/// One way through the pipeline: `project` computes its frame as `replay` does (the POI
/// query's language included), and `evaluate LOG` fuses as `pose` does (the whole north
/// reference, the expected field included).
@Suite struct PipelineCLITests {
    @Test func projectNamesPOIsInTheLanguageAsked() throws {
        let common = ["project", "--at", "60.1678391,24.9475584,21.4", "--heading", "17", "--pitch", "4", "--size", "720x1280",
                      "--hfov", "60", "--pois", sampleLogs.appendingPathComponent("helsinki-esplanadi.osm").path, "--filter", "cafe"]
        let plain = try runPoiar(common)
        let english = try runPoiar(common + ["--lang", "en"])
        #expect(plain.status == 0 && english.status == 0, "\(english.stderr)")
        #expect(plain.stdout.contains("\"name\": \"Kulma\"") && !plain.stdout.contains("Science&coffee+shop"))
        #expect(english.stdout.contains("\"name\": \"Science&coffee+shop\""), "\(english.stdout.prefix(600))")
        let bad = try runPoiar(common + ["--lang", "e n"])
        #expect(bad.status != 0 && bad.stderr.contains("--lang"))
    }

    @Test func evaluateFusesALogAsPoseDoes() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = try writeLog(try walkPrefix(seconds: 40), named: "walk40.csv", in: dir)
        let truth = sampleLogs.appendingPathComponent("walk.truth.csv").path
        let poses = dir.appendingPathComponent("poses.csv")
        for mode in [[], ["--causal"]] {
            #expect(try runPoiar(["pose", log.path, "--out", poses.path] + mode).status == 0)
            let viaPose = try runPoiar(["evaluate", "--poses", poses.path, "--truth", truth, "--json", "--min-coverage", "0"])
            let direct = try runPoiar(["evaluate", log.path, "--truth", truth, "--json", "--min-coverage", "0"] + mode)
            #expect(viaPose.status == 0 && direct.status == 0, "\(direct.stderr)")
            #expect(viaPose.stdout == direct.stdout, "\(mode): \(viaPose.stdout) vs \(direct.stdout)")
        }
    }
}
