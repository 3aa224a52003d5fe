import Foundation
import Quire
import Testing

@testable import QuireSync

/// A replicator configuration's defaults, settings and copies, as Couchbase Lite's
/// ReplicatorTest and ReplicatorTest_Collection check them; invalid values stop the
/// replicator at start with invalidParameter where Couchbase Lite raises an exception.
struct ReplicatorConfigurationTests {
    private static let target = URLEndpoint(url: URL(string: "ws://foo.couchbase.com/db") ?? URL(fileURLWithPath: "/"))

    private static func isPublic(_ document: Document, _ flags: DocumentFlags) -> Bool {
        document.boolean(forKey: "sync") && !flags.contains(.deleted)
    }

    // covers: ReplicatorTest.testReplicatorConfigDefaultValues, ReplicatorTest.testDefaultReplicatorConfiguration
    @Test func aNewConfigurationHasCouchbaseLitesDefaults() throws {
        let database = try SyncTestDatabase()
        var config = ReplicatorConfiguration(target: Self.target)
        config.addCollection(database.collection)
        #expect(config.replicatorType == ReplicatorConfiguration.defaultType)
        #expect(config.replicatorType == .pushAndPull)
        #expect(config.continuous == ReplicatorConfiguration.defaultContinuous)
        #expect(!config.continuous)
        #expect(config.heartbeat == ReplicatorConfiguration.defaultHeartbeat)
        #expect(config.heartbeat == 300)
        #expect(config.maxAttempts == ReplicatorConfiguration.defaultMaxAttemptsSingleShot)
        #expect(config.maxAttempts == 10)
        #expect(config.maxAttemptWaitTime == ReplicatorConfiguration.defaultMaxAttemptsWaitTime)
        #expect(config.maxAttemptWaitTime == 300)
        #expect(config.enableAutoPurge == ReplicatorConfiguration.defaultEnableAutoPurge)
        #expect(config.enableAutoPurge)
        #expect(config.authenticator == nil)
        #expect(config.headers == nil)
        #if TLS
            #expect(config.pinnedServerCertificate == nil)
        #endif
        #expect(config.collections == [database.collection])
        let collectionConfig = try #require(config.collectionConfig(database.collection))
        #expect(collectionConfig.channels == nil)
        #expect(collectionConfig.conflictResolver == nil)
        #expect(collectionConfig.documentIDs == nil)
        #expect(collectionConfig.pullFilter == nil)
        #expect(collectionConfig.pushFilter == nil)
        // The defaults are what a run uses.
        #expect(config.effectiveMaxAttempts == 10)
        #expect(config.effectiveMaxAttemptWaitTime == 300)
        #expect(config.effectiveHeartbeat == 300)

        config.continuous = true
        #expect(config.maxAttempts == ReplicatorConfiguration.defaultMaxAttemptsContinuous)
        #expect(config.maxAttempts == .max)
    }

    // covers: ReplicatorTest.testMaxAttemptCount, ReplicatorTest.testCustomMaxAttemptCount
    @Test func maxAttemptsFollowsContinuousUntilSetAndZeroGoesBackToTheDefault() {
        var config = ReplicatorConfiguration(target: Self.target)
        #expect(config.maxAttempts == 10)
        config.maxAttempts = 22
        #expect(config.maxAttempts == 22)
        #expect(config.effectiveMaxAttempts == 22)
        // A value that was set stays when the mode changes.
        config.continuous = true
        #expect(config.maxAttempts == 22)

        config = ReplicatorConfiguration(target: Self.target)
        config.continuous = true
        #expect(config.maxAttempts == .max)
        config.maxAttempts = 11
        #expect(config.maxAttempts == 11)
        config.maxAttempts = 0
        #expect(config.maxAttempts == .max)
        config.continuous = false
        #expect(config.maxAttempts == 10)
    }

    // covers: ReplicatorTest.testMaxAttemptWaitTime, ReplicatorTest.testCustomMaxAttemptWaitTime
    @Test func maxAttemptWaitTimeDefaultsTo300AndKeepsASetValue() {
        var config = ReplicatorConfiguration(target: Self.target)
        #expect(config.maxAttemptWaitTime == 300)
        config.continuous = true
        #expect(config.maxAttemptWaitTime == 300)
        #expect(Replicator(config: config).config.maxAttemptWaitTime == 300)
        config.maxAttemptWaitTime = 444
        #expect(config.maxAttemptWaitTime == 444)
        #expect(config.effectiveMaxAttemptWaitTime == 444)
        config.continuous = false
        config.maxAttemptWaitTime = 555
        #expect(Replicator(config: config).config.effectiveMaxAttemptWaitTime == 555)
        // 0 keeps Couchbase Lite's meaning: the default.
        config.maxAttemptWaitTime = 0
        #expect(config.effectiveMaxAttemptWaitTime == 300)
    }

    // covers: ReplicatorTest.testCustomHeartbeat
    @Test func aCustomHeartbeatReachesTheReplicator() throws {
        let database = try SyncTestDatabase()
        var config = ReplicatorConfiguration(target: Self.target)
        config.addCollection(database.collection)
        #expect(config.heartbeat == 300)
        config.heartbeat = 60
        let replicator = Replicator(config: config)
        #expect(replicator.config.heartbeat == 60)
        #expect(replicator.config.effectiveHeartbeat == 60)
        #expect(config.heartbeat == 60)
        config.heartbeat = 0
        #expect(config.effectiveHeartbeat == 300)
    }

    /// Starts a replicator with `config` and returns the error it stopped with.
    private func startError(_ config: ReplicatorConfiguration) -> QuireError? {
        let replicator = Replicator(config: config)
        replicator.start()
        #expect(replicator.status.activity == .stopped)
        return replicator.status.error
    }

    // covers: ReplicatorTest.testHeartbeatWithInvalidValue
    @Test func aNegativeHeartbeatStopsTheStartWithInvalidParameter() throws {
        let database = try SyncTestDatabase()
        var config = ReplicatorConfiguration(target: Self.target)
        config.addCollection(database.collection)
        config.continuous = true
        config.heartbeat = -1
        let error = try #require(startError(config))
        #expect(error.code == .invalidParameter)
        #expect(error.message.contains("heartbeat"))
    }

    // covers: ReplicatorTest.testInvalidMaxAttemptWaitTime
    @Test func aNegativeMaxAttemptWaitTimeStopsTheStartWithInvalidParameter() throws {
        let database = try SyncTestDatabase()
        var config = ReplicatorConfiguration(target: Self.target)
        config.addCollection(database.collection)
        config.maxAttemptWaitTime = -1
        let error = try #require(startError(config))
        #expect(error.code == .invalidParameter)
        #expect(error.message.contains("maxAttemptWaitTime"))
    }

    private func configured(_ collection: Collection) -> ReplicatorConfiguration {
        var collectionConfig = CollectionConfiguration()
        collectionConfig.channels = ["c1", "c2"]
        collectionConfig.documentIDs = ["d1", "d2"]
        collectionConfig.pushFilter = Self.isPublic
        collectionConfig.pullFilter = Self.isPublic
        var config = ReplicatorConfiguration(target: Self.target)
        config.addCollection(collection, config: collectionConfig)
        config.continuous = true
        config.headers = ["a": "aa", "b": "bb"]
        config.replicatorType = .pull
        config.heartbeat = 211
        config.maxAttempts = 223
        config.maxAttemptWaitTime = 227
        config.authenticator = BasicAuthenticator(username: "abcd", password: "1234")
        #if TLS
            config.pinnedServerCertificate = Data([1, 2, 3])
        #endif
        return config
    }

    private func expectConfigured(_ config: ReplicatorConfiguration, _ collection: Collection) throws {
        #expect(config.continuous)
        let basic = try #require(config.authenticator as? BasicAuthenticator)
        #expect(basic.username == "abcd" && basic.password == "1234")
        #expect(config.headers == ["a": "aa", "b": "bb"])
        #expect(config.replicatorType == .pull)
        #expect(config.heartbeat == 211)
        #expect(config.maxAttempts == 223)
        #expect(config.maxAttemptWaitTime == 227)
        #if TLS
            #expect(config.pinnedServerCertificate == Data([1, 2, 3]))
        #endif
        #expect(config.collections.count == 1)
        let collectionConfig = try #require(config.collectionConfig(collection))
        #expect(collectionConfig.channels == ["c1", "c2"])
        #expect(collectionConfig.documentIDs == ["d1", "d2"])
        let filter = try #require(collectionConfig.pushFilter)
        #expect(collectionConfig.pullFilter != nil)
        // The filter kept is the one given.
        let synced = MutableDocument(id: "x")
        synced.setValue(true, forKey: "sync")
        #expect(filter(synced, []))
        #expect(!filter(synced, .deleted))
    }

    // covers: ReplicatorTest.testCopyingReplicatorConfiguration
    @Test func aCopyKeepsItsValuesWhenTheOriginalChanges() throws {
        let database = try SyncTestDatabase()
        var original = configured(database.collection)
        let copy = ReplicatorConfiguration(config: original)
        original.continuous = false
        original.authenticator = nil
        original.headers = nil
        original.replicatorType = .push
        original.heartbeat = 11
        original.maxAttempts = 13
        original.maxAttemptWaitTime = 17
        #if TLS
            original.pinnedServerCertificate = nil
        #endif
        original.addCollection(database.collection, config: CollectionConfiguration())
        try expectConfigured(copy, database.collection)
        #expect(original.collectionConfig(database.collection)?.channels == nil)
        #expect(original.heartbeat == 11)
    }

    // covers: ReplicatorTest.testReplicationConfigSetterMethods
    @Test func aReplicatorKeepsEverySetting() throws {
        let database = try SyncTestDatabase()
        let replicator = Replicator(config: configured(database.collection))
        try expectConfigured(replicator.config, database.collection)
    }

    // covers: ReplicatorTest_CustomConflict.testConflictResolverConfigProperty
    @Test func aCollectionsConflictResolverReachesTheReplicator() throws {
        struct RemoteWins: ConflictResolverProtocol {
            func resolve(conflict: Conflict) -> Document? { conflict.remoteDocument }
        }
        let database = try SyncTestDatabase()
        var collectionConfig = CollectionConfiguration()
        collectionConfig.conflictResolver = RemoteWins()
        var config = ReplicatorConfiguration(target: Self.target)
        config.replicatorType = .pull
        config.addCollection(database.collection, config: collectionConfig)
        let replicator = Replicator(config: config)
        let resolver = try #require(replicator.config.collectionConfig(database.collection)?.conflictResolver)
        #expect(resolver is RemoteWins)
        let remote = MutableDocument(id: "doc")
        #expect(
            resolver.resolve(conflict: Conflict(documentID: "doc", localDocument: nil, remoteDocument: remote))
                === remote)
        #expect(config.collectionConfig(database.collection)?.conflictResolver is RemoteWins)
    }

    // covers: ReplicatorTest_Collection.testCreateConfigWithCollection
    @Test func aConfigurationWithACollectionHasItsDefaults() throws {
        let database = try SyncTestDatabase()
        let colA = try database.database.createCollection(name: "colA", scope: "scopeA")
        var config = ReplicatorConfiguration(
            target: URLEndpoint(url: URL(string: "wss://foo") ?? URL(fileURLWithPath: "/")))
        config.addCollection(colA)
        #expect(config.collections.count == 1)
        #expect(config.collections.first == colA)
        #expect(config.collections.first?.fullName == "scopeA.colA")
        let collectionConfig = try #require(config.collectionConfig(colA))
        #expect(collectionConfig.documentIDs == nil)
        #expect(collectionConfig.channels == nil)
        #expect(collectionConfig.conflictResolver == nil)
        #expect(collectionConfig.pushFilter == nil)
        #expect(collectionConfig.pullFilter == nil)
        #expect(config.collectionConfig(database.collection) == nil)
    }
}
