// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "poiar",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "POIAR", targets: [
            "POIARCore", "Geodesy", "GeodesyData", "SensorLog", "PhoneImport", "Footage", "Fusion", "POIStore", "Projection", "Rendering",
            "Recordings", "Frames", "Replay", "Simulation", "Evaluation", "MCAP", "Export", "Maps", "Benchmarks", "Manifest", "Report",
        ]),
        .executable(name: "poiar", targets: ["poiar"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: [
        // System libraries (module maps + tiny C helpers).
        .systemLibrary(name: "CZlib", pkgConfig: "zlib",
                       providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng",
                       providers: [.apt(["libpng-dev"]), .brew(["libpng"])]),
        .systemLibrary(name: "CDeflate", pkgConfig: "libdeflate",  // PNG compression, gzipped logs inflated whole (faster than zlib)
                       providers: [.apt(["libdeflate-dev"]), .brew(["libdeflate"])]),
        .systemLibrary(name: "CJPEG", pkgConfig: "libturbojpeg",
                       providers: [.apt(["libturbojpeg0-dev"]), .brew(["jpeg-turbo"])]),
        .systemLibrary(name: "CBZip2",  // no pkg-config file for bzip2 on Debian: module map links "bz2"
                       providers: [.apt(["libbz2-dev"]), .brew(["bzip2"])]),
        // OSM XML is read with libxml2's SAX push parser (streamed, chunk by chunk).
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0",
                       providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]),
        .systemLibrary(name: "CCairo", pkgConfig: "cairo",
                       providers: [.apt(["libcairo2-dev", "libfreetype-dev", "fonts-dejavu-core"]),
                                   .brew(["cairo", "freetype"])]),
        // Video in (footage frames, GoPro telemetry tracks) and out (--video): FFmpeg's headers
        // (Debian: libavformat-dev, libavcodec-dev, libswscale-dev, libavutil-dev). Its libraries
        // are not linked but loaded on the first call (FFmpegLibraries.c): linked, they and the
        // ~130 libraries they need were loaded before every run (~50 ms of a `poiar pose`).
        .target(name: "CFFmpeg"),

        // The engine, in data-flow order (see docs/architecture.md).
        .target(name: "POIARCore"),
        .target(name: "Geodesy", dependencies: ["POIARCore"]),
        // Geodesy is pure; the data files its models read (the geoid grid) are found and read here.
        .target(name: "GeodesyData", dependencies: ["POIARCore", "Geodesy"]),
        .target(name: "SensorLog", dependencies: ["POIARCore", "CZlib", "CDeflate"],
                // The reader's per-row state lives in a class; runtime exclusivity checks on it
                // cost about a tenth of `poiar pose` (docs/fusion-performance.md). Debug builds
                // and the tests keep them.
                swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]),
        // Geodesy: the declination that tells a phone's true-north orientation from a magnetic one.
        .target(name: "PhoneImport", dependencies: ["POIARCore", "Geodesy", "GeodesyData", "SensorLog", "Footage", "CZlib"],
                // As SensorLog's: the per-row state of the streams lives in classes.
                swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]),
        // Geodesy: the GPS course (geodesic azimuth between fixes) the heading is aligned with.
        .target(name: "Fusion", dependencies: ["POIARCore", "Geodesy"]),
        .target(name: "POIStore", dependencies: [
            "POIARCore", "Geodesy", "GeodesyData", "CZlib", "CBZip2", "CLibXML2", .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "GRDBSQLite", package: "GRDB.swift"),  // the SQLite C API, for bulk imports
        ]),
        .target(name: "Projection", dependencies: ["POIARCore", "Geodesy"]),
        // Video and still sequences in (FFmpeg's libraries); before PhoneImport, which reads a
        // GoPro clip's telemetry track through it.
        .target(name: "Footage", dependencies: ["POIARCore", "CFFmpeg"]),
        .target(name: "Rendering", dependencies: ["POIARCore", "CPNG", "CDeflate", "CJPEG", "CCairo"]),
        .target(name: "Simulation", dependencies: ["POIARCore", "Geodesy", "SensorLog"]),
        .target(name: "Evaluation", dependencies: ["POIARCore", "SensorLog"]),
        // The MCAP container (Foxglove, ROS 2 bags): a writer, hand-written (no Swift MCAP package).
        .target(name: "MCAP", dependencies: ["POIARCore", "CZlib"]),
        // One recording opened once: its first reading, north resolved once, the fusion pass
        // (offline or causal), the GPS track, the heading of a recording without a magnetometer.
        .target(name: "Recordings", dependencies: ["POIARCore", "Geodesy", "SensorLog", "PhoneImport", "Footage", "Fusion", "Projection"],
                // As SensorLog's: every sample of a pass goes through the reading's state in a
                // class (`PrefixedReading`, the read-ahead), where exclusivity checks cost.
                swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]),
        // `--mcap`: a recording and its frames as an MCAP file in Foxglove's schemas.
        .target(name: "Export", dependencies: ["POIARCore", "Geodesy", "SensorLog", "PhoneImport", "MCAP", "Rendering"]),
        // `poiar map` and the flat-phone map: a track, its view cones and POIs over an OSM base map.
        .target(name: "Maps", dependencies: ["POIARCore", "Geodesy", "Projection", "POIStore", "Rendering"]),
        // `pose --bench-filter`, `bench-render`, `bench-footage`: the speed of the filter and of the codecs.
        .target(name: "Benchmarks", dependencies: ["POIARCore", "SensorLog", "Recordings", "Fusion", "Footage", "Rendering"]),
        // frames.jsonl, the frame manifest, as a type: its one writer and its one reader.
        .target(name: "Manifest", dependencies: ["POIARCore", "Projection"]),
        // The one per-frame path (`FramePipeline`): the camera settled, a frame annotated into its
        // record (the manifest line), and drawn (cards, HUD, arrows, the flat-phone map).
        .target(name: "Frames", dependencies: [
            "POIARCore", "Geodesy", "SensorLog", "POIStore", "Projection", "Rendering", "Recordings", "Manifest", "Maps",
        ]),
        // The extras of an output folder of frames: the video (encoded as frames are drawn, or
        // from the frame files) and the contact sheet.
        .target(name: "FolderExtras", dependencies: ["POIARCore", "Footage", "Frames", "Manifest", "Rendering"]),
        .target(name: "Replay", dependencies: [
            "Recordings", "Frames",
            "POIARCore", "Geodesy", "GeodesyData", "SensorLog", "PhoneImport", "Footage", "Fusion", "POIStore", "Projection", "Rendering",
            "Evaluation", "Export", "Maps", "Manifest", "FolderExtras",
        ]),
        // report.html from a replay's frames.jsonl; the page's HTML, CSS and JavaScript are files
        // in Resources/, compiled in (`PackageResources`). Called by the CLI, not by Replay.
        .target(name: "Report", dependencies: ["POIARCore", "Manifest", "Evaluation", "Rendering", "POIStore"],
                resources: [.embedInCode("Resources/report.html"), .embedInCode("Resources/report.css"),
                            .embedInCode("Resources/report-series.js"), .embedInCode("Resources/report-map.js"),
                            .embedInCode("Resources/report-plots.js"), .embedInCode("Resources/report-frame.js")]),
        .executableTarget(name: "poiar", dependencies: [
            "Replay", "Recordings", "Frames", "Export", "Maps", "Benchmarks", "Report", "POIStore", "SensorLog", "PhoneImport", "Simulation", "Evaluation",
            "Fusion", "Projection", "Rendering", "Geodesy", "GeodesyData", "POIARCore", "FolderExtras",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        // Helpers every test target shares (temporary folders removed when the run ends).
        .target(name: "PoiarTestSupport", dependencies: ["POIARCore", "Geodesy", "Rendering"], path: "Tests/TestSupport"),

        .testTarget(name: "POIARCoreTests", dependencies: ["PoiarTestSupport", "POIARCore"]),
        .testTarget(name: "GeodesyTests", dependencies: ["PoiarTestSupport", "Geodesy", "GeodesyData"], exclude: ["Fixtures"]),
        .testTarget(name: "SensorLogTests", dependencies: ["PoiarTestSupport", "SensorLog"]),
        .testTarget(name: "PhoneImportTests", dependencies: ["PoiarTestSupport", "PhoneImport", "SensorLog", "Footage", "CZlib", "Geodesy", "GeodesyData"]),
        .testTarget(name: "SimulationTests", dependencies: ["PoiarTestSupport", "Simulation", "Evaluation", "SensorLog", "Recordings", "Replay", "Fusion", "PhoneImport"]),
        .testTarget(name: "FusionTests", dependencies: ["PoiarTestSupport", "Fusion", "SensorLog"]),
        .testTarget(name: "POIStoreTests", dependencies: ["PoiarTestSupport", "POIStore", "Geodesy", "GeodesyData"]),
        .testTarget(name: "ProjectionTests", dependencies: ["PoiarTestSupport", "Projection", "Geodesy"]),
        .testTarget(name: "RenderingTests", dependencies: ["PoiarTestSupport", "Rendering"], exclude: ["Fixtures"]),
        .testTarget(name: "MCAPTests", dependencies: ["PoiarTestSupport", "MCAP"]),
        .testTarget(name: "ReplayTests", dependencies: ["PoiarTestSupport", "Recordings", "Frames", "Replay", "Manifest", "Footage", "Rendering", "FolderExtras"], exclude: ["Fixtures"]),
        // PhoneImport, SensorLog: the GoPro walk converted to a log, against which footage sync is tested.
        .testTarget(name: "FootageTests", dependencies: ["PoiarTestSupport", "Footage", "PhoneImport", "SensorLog"]),
        // The command line end to end (every command, the bad-input catalogue): runs the built poiar.
        .testTarget(name: "CLITests", dependencies: ["PoiarTestSupport", "poiar", "Recordings", "Frames", "Replay", "Manifest", "Maps", "POIStore", "Rendering", "Fusion", "Footage", "FolderExtras", "Report",
                                                     "Geodesy", "GeodesyData", "SensorLog", "POIARCore"]),
    ],
    swiftLanguageModes: [.v6]
)
