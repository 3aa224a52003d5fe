import Foundation
import Quire

extension QuireSession {
    /// The steps on database objects and files: open, close, reopen, copy, delete, maintenance and the handle pool.
    func databaseStep(_ step: Step, in context: StepContext) throws -> SpecValue? {
        switch step {
        case .openConfigured(let name, let fullSync):
            var configuration = self.configuration
            configuration.fullSync = fullSync
            if let database = open[name] { try? database.close() }
            current = try Database(name: name, config: configuration)
            open[name] = current
            currentName = name
            return nil
        case .databaseInfo:
            let synchronous = try current.read { try $0.scalarInt("PRAGMA synchronous") }
            let names: [Int64: String] = [0: "off", 1: "normal", 2: "full", 3: "extra"]
            return .object([
                "name": .string(current.name), "path": .string(current.path),
                "fullSync": .bool(current.config.fullSync),
                "synchronous": synchronous.flatMap { names[$0] }.map(SpecValue.string) ?? .null,
            ])
        case .handle(let operation):
            return try handle(operation)
        case .deleteDatabaseByName(let name):
            try Database.delete(withName: name, inDirectory: directory.path)
            return nil
        case .open(let name):
            if let database = open[name], !database.isClosedForSpecs {
                current = database
            } else {
                current = try Database(name: name, config: configuration)
                open[name] = current
            }
            currentName = name
            return nil
        case .openInstance(let name, let alias):
            if let database = instances[alias], !database.isClosedForSpecs, database.name == name {
                current = database
            } else {
                current = try Database(name: name, config: configuration)
                instances[alias] = current
            }
            currentName = name
            return nil
        case .close:
            try current.close()
            return nil
        case .reopen:
            try? current.close()
            current = try Database(name: currentName, config: configuration)
            open[currentName] = current
            return nil
        case .copyDatabase(let copy):
            let source: String
            switch copy.source {
            case .database(let name): source = directory.appendingPathComponent("\(name).quire").path
            case .path(let url): source = url.path
            }
            if copy.asFiles {
                try FileManager.default.copyItem(
                    atPath: source, toPath: directory.appendingPathComponent("\(copy.destination).quire").path)
            } else {
                try Database.copy(fromPath: source, toDatabase: copy.destination, withConfig: configuration)
            }
            return nil
        case .databaseExists(let name):
            return .bool(Database.exists(withName: name, inDirectory: directory.path))
        case .maintenance(let type):
            let kinds: [String: MaintenanceType] = [
                "compact": .compact, "reindex": .reindex, "integrityCheck": .integrityCheck,
                "optimize": .optimize, "fullOptimize": .fullOptimize,
            ]
            guard let kind = kinds[type] else {
                throw QuireError(.invalidParameter, "unknown maintenance type '\(type)'")
            }
            try current.performMaintenance(type: kind)
            return nil
        case .deleteDatabase(let name):
            if let database = open[name], !database.isClosedForSpecs {
                try database.delete()
                open[name] = nil
            } else {
                try Database.delete(withName: name, inDirectory: directory.path)
            }
            return nil
        default: throw EngineError.misrouted(step, to: "databaseStep")
        }
    }

    func handle(_ operation: Step.HandleOperation) throws -> SpecValue? {
        switch operation {
        case .canOpen: return .bool(current.canOpen)
        case .isOpened: return .bool(current.isOpened)
        case .blockade: current.blockade()
        case .unblockade: current.unblockade()
        case .closeHandles:
            var openedInOnClosed = true
            let database = current
            try current.close(onClosed: { openedInOnClosed = database.isOpened })
            return .object(["openedInOnClosed": .bool(openedInOnClosed)])
        case .purgeFreeHandles: current.purgeFreeHandles()
        case .tag(let value):
            if let value { current.tag = value }
            return current.tag.map(SpecValue.int) ?? .null
        }
        return nil
    }

    /// The named database of the case directory, opened if needed; the current one is unchanged.
    func database(named name: String) throws -> Database {
        if name == currentName, !current.isClosedForSpecs { return current }
        if let database = open[name], !database.isClosedForSpecs { return database }
        let database = try Database(name: name, config: configuration)
        open[name] = database
        return database
    }
}
