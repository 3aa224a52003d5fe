import BenchmarkCatalog
import Foundation

/// One target, checked against a result set.
struct Target {
    var name: String
    /// The measured value, formatted, or nil when the run lacks the benchmarks.
    var measured: String?
    /// Met, missed, or only reported (no bound).
    var status: Status

    enum Status: String {
        case met, missed, reported
        case notRun = "not run"
    }
}

/// RESULTS.md: one table of medians and ratios, the targets, the machine, the method.
struct ResultsPage {
    let results: ResultSet
    let machine: [(String, String)]
    /// `PROFILE.md` as `profile.sh` wrote it, shown under "Where the time goes".
    var profile: String?
    /// `DIGESTS.md`, the figures of the digest benchmarks (`--target DigestBenchmarks`, run on
    /// their own), shown as a section of its own before "Machine".
    var digests: String? = nil

    /// The baseline engines, in table order.
    private let baselines: [Engine] = [.sqlite, .grdb, .foundation]

    func markdown() -> String {
        var lines: [String] = []
        lines.append("# Quire benchmarks")
        lines.append("")
        lines.append("Medians of each benchmark's measured iterations, from `Benchmarks/run-all.sh` (which runs")
        lines.append("`swift package benchmark` and then this page's generator). Ratios are Quire's median divided by")
        lines.append("the other engine's, from the same run: below 1 Quire is faster. Timings on a shared 2-core")
        lines.append("machine are noisy; compare ratios, not absolute times, between runs.")
        lines.append("")
        lines.append("![Quire's time divided by each baseline's](ratios.svg)")
        lines.append("")
        lines.append("## Medians and ratios")
        lines.append("")
        lines.append(
            "| Workload | Quire | SQLite C API | GRDB | JSONSerialization | Quire ÷ SQLite | Quire ÷ GRDB | Quire ÷ JSONSerialization | Quire mallocs / doc |"
        )
        lines.append("|---|--:|--:|--:|--:|--:|--:|--:|--:|")
        for workload in Workload.allCases {
            var cells = [workload.title, time(results[workload, .quire])]
            cells += baselines.map { time(results[workload, $0]) }
            cells += baselines.map { ratioText(results.ratio(workload, versus: $0)) }
            cells.append(perDocument(results[workload, .quire]?.mallocs, workload))
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        // Scaling and memory, in the same table so every number of the run is in one place.
        var scaling = ["Read scaling, 1 → 2 threads (1-thread time ÷ 2-thread time)"]
        scaling.append(times(results.readScaling(.quire)))
        scaling += baselines.map { times(results.readScaling($0)) }
        scaling += ["", "", "", ""]
        lines.append("| " + scaling.joined(separator: " | ") + " |")
        var hotelScaling = ["Read scaling of hotels, 1 → 2 threads"]
        hotelScaling.append(times(results.readScaling(.quire, .readHotels)))
        hotelScaling += baselines.map { times(results.readScaling($0, .readHotels)) }
        hotelScaling += ["", "", "", ""]
        lines.append("| " + hotelScaling.joined(separator: " | ") + " |")
        for workload in [Workload.batchSave, .batchSaveHotels] {
            var size = ["Bytes on disk per byte of JSON, after \(workload.rawValue)"]
            size.append(plain(results.bytesPerJSONByte(workload, .quire)))
            size += baselines.map { plain(results.bytesPerJSONByte(workload, $0)) }
            size += baselines.map { engine in ratioText(sizeRatio(workload, versus: engine)) }
            size.append("")
            lines.append("| " + size.joined(separator: " | ") + " |")
        }
        var memory = ["Peak resident memory growth during the batch save"]
        memory.append(megabytes(results[.batchSave, .quire]?.peakResidentDelta))
        memory += baselines.map { megabytes(results[.batchSave, $0]?.peakResidentDelta) }
        memory += baselines.map { engine in
            ratioText(memoryRatio(versus: engine))
        }
        memory.append("")
        lines.append("| " + memory.joined(separator: " | ") + " |")
        if let rate = results.conformanceCasesPerSecond, let run = results[.conformance, .quire] {
            var conformance = ["Conformance suite: cases run per second"]
            var detail = String(format: "%.0f cases/s", rate)
            if let cases = run.counters["cases"] { detail += String(format: " (%.0f cases", cases) }
            if let failed = run.counters["failedCases"] { detail += String(format: ", %.0f failed", failed) }
            if run.counters["cases"] != nil { detail += ")" }
            conformance.append(detail)
            conformance += ["", "", "", "", "", "", ""]
            lines.append("| " + conformance.joined(separator: " | ") + " |")
        }
        var mallocs = ["Mallocs per document read (`read`, 1 thread)"]
        mallocs.append(perDocument(results[.read, .quire]?.mallocs, .read))
        mallocs += baselines.map { perDocument(results[.read, $0]?.mallocs, .read) }
        mallocs += ["", "", "", ""]
        lines.append("| " + mallocs.joined(separator: " | ") + " |")
        lines.append("")

        lines.append("## Targets")
        lines.append("")
        lines.append("| Target | Measured | Status |")
        lines.append("|---|--:|---|")
        for target in targets() {
            lines.append("| \(target.name) | \(target.measured ?? "—") | \(target.status.rawValue) |")
        }
        lines.append("")

        lines.append("## Where the time goes")
        lines.append("")
        let missed = targets().filter { $0.status == .missed }.map(\.name)
        if !missed.isEmpty {
            lines.append("Missed in this run: \(missed.joined(separator: "; ")). The profiles below cover every")
            lines.append("storage and fixture workload, so each missed target has its workload's table and notes.")
            lines.append("")
        }
        if let profile, !profile.isEmpty {
            lines.append(profile.trimmingCharacters(in: .whitespacesAndNewlines))
        } else {
            lines.append("No profile yet: `Benchmarks/profile.sh` writes `PROFILE.md`, which this section shows.")
        }
        lines.append("")

        if let digests, !digests.isEmpty {
            lines.append(digests.trimmingCharacters(in: .whitespacesAndNewlines))
            lines.append("")
        }

        lines.append("## Machine")
        lines.append("")
        for (key, value) in machine {
            lines.append("- \(key): \(value)")
        }
        lines.append("")

        lines.append("## How the numbers are made")
        lines.append("")
        lines.append(contentsOf: method)
        if !results.unknown.isEmpty {
            lines.append("")
            lines.append(
                "Benchmarks in the export that this page does not know: \(results.unknown.joined(separator: ", ")).")
        }
        lines.append("")
        return lines.joined(separator: "\n")
    }

    func targets() -> [Target] {
        var targets: [Target] = []
        func bound(_ name: String, _ value: Double?, atMost limit: Double, unit: String = "×") -> Target {
            guard let value else { return Target(name: name, measured: nil, status: .notRun) }
            return Target(
                name: name, measured: String(format: "%.2f%@", value, unit), status: value <= limit ? .met : .missed)
        }
        targets.append(bound("Batch save ≤ 1.8 × SQLite", results.ratio(.batchSave, versus: .sqlite), atMost: 1.8))
        targets.append(
            bound("Batch save of hotels ≤ 1.2 × SQLite", results.ratio(.batchSaveHotels, versus: .sqlite), atMost: 1.2))
        targets.append(
            bound(
                "Read of one property of hotels ≤ 1.3 × SQLite", results.ratio(.readHotels, versus: .sqlite),
                atMost: 1.3))
        for workload in [Workload.readTwoThreads, .readHotelsTwoThreads] {
            targets.append(
                bound("\(workload.rawValue) ≤ 1.5 × SQLite", results.ratio(workload, versus: .sqlite), atMost: 1.5))
        }
        for workload in [Workload.batchSave, .batchSaveHotels] {
            targets.append(
                bound(
                    "Size after \(workload.rawValue) ≤ 1.15 × SQLite's plain table",
                    sizeRatio(workload, versus: .sqlite),
                    atMost: 1.15))
        }
        targets.append(
            bound(
                "Read of one property ≤ 1.3 × SQLite's fetch of the bytes", results.ratio(.read, versus: .sqlite),
                atMost: 1.3))
        targets.append(
            bound(
                "Indexed query ≤ 1.3 × the hand-written SQL", results.ratio(.queryIndexed, versus: .sqlite), atMost: 1.3
            ))
        targets.append(
            bound(
                "Indexed query of hotels ≤ 1.3 × the hand-written SQL",
                results.ratio(.queryHotelsIndexed, versus: .sqlite), atMost: 1.3))
        for workload in [Workload.fixtureBuild, .fixtureBuildHotels] {
            targets.append(
                bound(
                    "\(workload.rawValue) ≤ 1.5 × the plain build", results.ratio(workload, versus: .sqlite),
                    atMost: 1.5))
        }
        for workload in [Workload.fixtureInstall, .fixtureInstallHotels] {
            targets.append(
                bound(
                    "\(workload.rawValue) ≤ 2 × extract and open", results.ratio(workload, versus: .sqlite), atMost: 2))
        }
        for workload in Workload.allCases where workload.engines.contains(.grdb) {
            targets.append(
                bound("Faster than GRDB: \(workload.rawValue)", results.ratio(workload, versus: .grdb), atMost: 0.9999))
        }
        for (oneThread, name) in [
            (Workload.read, "Read scaling 1 → 2 threads ≥ 1.7"),
            (.readHotels, "Read scaling of hotels 1 → 2 threads ≥ 1.7"),
        ] {
            if let scaling = results.readScaling(.quire, oneThread) {
                targets.append(
                    Target(
                        name: name, measured: String(format: "%.2f×", scaling), status: scaling >= 1.7 ? .met : .missed)
                )
            } else {
                targets.append(Target(name: name, measured: nil, status: .notRun))
            }
        }
        targets.append(
            bound("Peak memory of the batch save ≤ 1.5 × SQLite's", memoryRatio(versus: .sqlite), atMost: 1.5))
        let mallocs = results[.read, .quire]?.mallocs.map { $0 / Double(Workload.read.documentsPerIteration) }
        targets.append(
            Target(
                name: "Allocations per document read (reported, kept low)",
                measured: mallocs.map { String(format: "%.1f", $0) }, status: mallocs == nil ? .notRun : .reported))
        return targets
    }

    /// Quire's bytes on disk per JSON byte after `workload` divided by `engine`'s.
    private func sizeRatio(_ workload: Workload, versus engine: Engine) -> Double? {
        guard let quire = results.bytesPerJSONByte(workload, .quire),
            let other = results.bytesPerJSONByte(workload, engine),
            other > 0
        else { return nil }
        return quire / other
    }

    /// Quire's peak memory growth in the batch save divided by `engine`'s.
    private func memoryRatio(versus engine: Engine) -> Double? {
        guard let quire = results[.batchSave, .quire]?.peakResidentDelta,
            let other = results[.batchSave, engine]?.peakResidentDelta, other > 0
        else { return nil }
        return quire / other
    }

    /// Bars for the chart: every time ratio, and the memory ratio against SQLite.
    func chartRows() -> [RatioChart.Row] {
        var rows: [RatioChart.Row] = []
        for workload in Workload.allCases {
            for engine in workload.engines.dropFirst() {
                guard let ratio = results.ratio(workload, versus: engine) else { continue }
                var target: Double?
                switch (workload, engine) {
                // The bounds of `targets()`, drawn as ticks.
                case (.batchSave, .sqlite): target = 1.8
                case (.batchSaveHotels, .sqlite): target = 1.2
                case (.read, .sqlite), (.readHotels, .sqlite): target = 1.3
                case (.readTwoThreads, .sqlite), (.readHotelsTwoThreads, .sqlite): target = 1.5
                case (.queryIndexed, .sqlite), (.queryHotelsIndexed, .sqlite): target = 1.3
                case (.fixtureBuild, .sqlite), (.fixtureBuildHotels, .sqlite): target = 1.5
                case (.fixtureInstall, .sqlite), (.fixtureInstallHotels, .sqlite): target = 2
                case (_, .grdb): target = 1
                default: target = nil
                }
                rows.append(
                    RatioChart.Row(label: "\(workload.rawValue) vs \(engine.rawValue)", ratio: ratio, target: target))
            }
        }
        if let memory = memoryRatio(versus: .sqlite) {
            rows.append(RatioChart.Row(label: "batch-save peak memory vs SQLite", ratio: memory, target: 1.5))
        }
        return rows
    }

    /// One line per target, for the terminal.
    func summary() -> String {
        targets().map {
            "\($0.status.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)) \($0.name): \($0.measured ?? "—")"
        }
        .joined(separator: "\n")
    }

    // MARK: Formatting

    private func time(_ medians: Medians?) -> String {
        guard let milliseconds = medians?.wallMilliseconds else { return "" }
        if milliseconds >= 1000 { return String(format: "%.2f s", milliseconds / 1000) }
        if milliseconds >= 10 { return String(format: "%.0f ms", milliseconds) }
        return String(format: "%.1f ms", milliseconds)
    }

    private func plain(_ value: Double?) -> String {
        value.map { String(format: "%.2f", $0) } ?? ""
    }

    private func ratioText(_ ratio: Double?) -> String {
        guard let ratio else { return "" }
        return ratio < 0.1 ? String(format: "%.3f", ratio) : String(format: "%.2f", ratio)
    }

    private func times(_ value: Double?) -> String {
        value.map { String(format: "%.2f×", $0) } ?? ""
    }

    private func megabytes(_ bytes: Double?) -> String {
        bytes.map { String(format: "%.1f MB", $0 / 1_000_000) } ?? ""
    }

    private func perDocument(_ count: Double?, _ workload: Workload) -> String {
        guard workload.documentsPerIteration > 0 else { return "" }
        return count.map { String(format: "%.1f", $0 / Double(workload.documentsPerIteration)) } ?? ""
    }

    private var method: [String] {
        [
            "- Harness: [ordo-one/benchmark](https://github.com/ordo-one/benchmark) 1.38.1 with the",
            "  `MallocInterposer` trait; every benchmark runs in a process of its own (one warm-up",
            "  iteration, then up to 9 measured for storage and 15 for the codec, within 20 s and 10 s).",
            "  Only the work named in the row is measured: stores are created, filled (for reads),",
            "  closed and deleted outside the measurement.",
            "- Data: `QuireFixtures.DatasetGenerator` with a fixed seed. People (`names`, about 300",
            "  bytes, `contact.address.state` in every document) for storage and the people codec rows;",
            "  hotels (`travel`, a few KB with reviews) for every hotel row. Every engine gets the",
            "  same ID and the same canonical JSON text (sorted keys, no `_id`).",
            "- Quire: `MutableDocument(id:json:)` and `save(document:)` (inside `inBatch` for the",
            "  batch); reads are `document(id:)` then",
            "  `dictionary(forKey: \"contact\")?.dictionary(forKey: \"address\")?.string(forKey: \"state\")`",
            "  (hotels: `string(forKey: \"city\")`).",
            "- SQLite C API: the system libsqlite3, an ordinary rowid table of ID and JSON text with a",
            "  unique index on the ID (what a careful engineer writes by hand, not a copy of Quire's layout),",
            "  prepared statements, text bound without copies; a batch is `BEGIN IMMEDIATE` ... `COMMIT`,",
            "  a single save is one INSERT in autocommit mode; a read steps a prepared SELECT and touches",
            "  the bytes (no parsing).",
            "- GRDB 7.10.0 `DatabaseQueue` (the system SQLite): a Codable record of ID and JSON text,",
            "  `insert` inside `write`; reads fetch the record through a cached statement and decode",
            "  `contact.address.state` with `JSONDecoder`. `DatabaseQueue` serializes its readers.",
            "- All three use WAL, `synchronous=NORMAL`, `foreign_keys=OFF`, `temp_store=FILE`.",
            "  Three differences are Quire's own design, not settings of the run: Quire checkpoints the",
            "  WAL on a background queue once it passes 1,000 frames (and on the writer only past",
            "  4,000), where the C API and GRDB let SQLite checkpoint inside the COMMIT that crosses",
            "  1,000 frames; Quire turns SQLite's memory statistics off for the process (one",
            "  global mutex per allocation); and Quire makes its files with 8 KB pages, where the",
            "  others keep SQLite's default of 4 KB (STORAGE_LAYOUT.md, \"Page size\": a hotel of",
            "  2.7 KB no longer fills a page alone; a save in its own transaction commits bigger pages).",
            "- Reads: random IDs (fixed seed, repeats allowed) from a store of 100,000 people that the",
            "  engine itself filled, reopened before reading. Two threads split the same number of",
            "  reads; scaling is the 1-thread median divided by the 2-thread median.",
            "- Codec: Quire's `JSONReader.parse` / `JSONWriter.bytes` (sorted keys, the stored form)",
            "  against `JSONSerialization.jsonObject(with:)` / `data(withJSONObject:options: .sortedKeys)`,",
            "  each on inputs prepared in its own form beforehand (bytes, `Data`, parsed values).",
            "- Peak memory: the resident set sampled every ~5 ms during the run, minus its level when",
            "  the run started (after the documents were loaded).",
            "- Queries: a store of 100,000 people that the engine filled, reopened. Quire runs",
            "  `QueryBuilder.select(Meta.id, name.last).where(contact.address.state == \"WA\")` and reads",
            "  both columns of every row with `string(at:)`; SQLite and GRDB run the same hand-written",
            "  SQL, `SELECT key, json_extract(body, '$.name.last') FROM docs WHERE",
            "  json_extract(body, '$.contact.address.state') = ?`, the C API stepping a prepared statement",
            "  and touching both texts, GRDB iterating a `Row` cursor of a cached statement and reading",
            "  both as `String`. One person in five lives in WA. The index is Quire's",
            "  `ValueIndexConfiguration([\"contact.address.state\"])` (a partial SQLite index on the same",
            "  expression, live documents only) and, for the others, `CREATE INDEX ... ON",
            "  docs(json_extract(body, '$.contact.address.state'))`; its creation is timed on the",
            "  filled store, and it is dropped again outside the measurement. The hotel queries do the",
            "  same over 10,000 hotels (a few KB each): `country == \"France\"` (3 in 20), selecting",
            "  `Meta.id` and `name`, the value index on `country`. Quire's query tests `x IS NOT MISSING`",
            "  beside a comparison only when a partial index of the collection has that condition.",
            "- Full text: 10,000 hotels. Quire's `FullTextIndexConfiguration([\"description\"])` (English",
            "  stemming) against an FTS5 table `(key UNINDEXED, description)` with the same tokenizer",
            "  (`porter unicode61 remove_diacritics 0`), made before the store is reopened. Quire runs",
            "  `FullTextFunction.match` for `pool breakfast` selecting `Meta.id` and `name`; the others",
            "  join the FTS5 table's matches to `docs` by key and read the same two values.",
            "- Fixture build: from a generated `names` dataset of 100,000 people (JSON lines on disk).",
            "  Quire is `FixtureBuilder` on a one-collection recipe, batches of 1,000, as `quire fixture",
            "  build` runs it (canonical bodies, revision IDs, compaction, a manifest with SHA-256 of",
            "  every file, a reproducible zip). The baseline reads the same lines, inserts each with",
            "  `INSERT INTO docs VALUES (json_extract(?1, '$._id'), json_remove(?1, '$._id'))` in",
            "  transactions of 1,000, checkpoints and vacuums the file, and zips it with the same zip",
            "  writer and deflate level (`ReproducibleZipWriter`, level 6). There is no GRDB row: GRDB",
            "  would run the same SQL. The hotel rows build the travel dataset's `inventory.hotel`",
            "  collection alone (10,000 hotels; Quire's recipe names that collection, and its fixture",
            "  also carries the hotels' few image blobs, which the plain table leaves out).",
            "- Fixture install: from the archives built above. Quire is",
            "  `FixtureInstaller.installIfAbsent` (safe extraction, every file checked against the",
            "  manifest's SHA-256 as it is written, new UUIDs and a rename into place, open) and one",
            "  `document(id:)`; the baseline extracts with the same `SafeArchiveReader`, renames the",
            "  file into place, opens it and fetches the same document's body. The checks and the new",
            "  identity are Quire's; a plain unzip does neither.",
            "- Conformance: `ConformanceSuite.load(paths: [\"Specs\"])` and `ConformanceRunner` with the",
            "  default engine and as many jobs as cores, what `quire conform Specs` does without",
            "  printing; performance cases are skipped, as there. Its time is mostly waiting (replication",
            "  steps against a listener, timeouts), not CPU. Cases per second is the median count of",
            "  cases run (not skipped) over the median time.",
            "- `QUIRE_BENCH_SCALE` scales every document count above; the table's titles show the",
            "  counts of this run.",
        ]
    }
}
