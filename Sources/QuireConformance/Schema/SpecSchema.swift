/// The JSON Schema of spec files: the one source of truth for their structure.
///
/// The runner validates every file against it, and `quire conform --print-schema` writes it
/// out; `Specs/schema.json` is that output, checked in for editors (a test keeps them equal).
package enum SpecSchema {
    /// The schema as JSON text (draft 2020-12).
    package static let json = #"""
        {
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "title": "top-level key",
          "description": "A Quire conformance spec file: one area of behaviour, as a list of cases. See Specs/README.md.",
          "type": "object",
          "properties": {
            "about": {
              "description": "What the file pins down, in a sentence.",
              "type": "string",
              "minLength": 1
            },
            "tags": { "$ref": "#/$defs/tags" },
            "given": { "$ref": "#/$defs/given" },
            "cases": {
              "description": "The cases, run in this order.",
              "type": "array",
              "minItems": 1,
              "items": { "$ref": "#/$defs/case" }
            }
          },
          "required": ["about", "cases"],
          "additionalProperties": false,
          "$defs": {
            "variable": {
              "description": "a ${variable} reference, optionally with string functions (${url|withoutPort})",
              "type": "string",
              "pattern": "^\\$\\{[A-Za-z_][A-Za-z0-9_-]*(\\.[A-Za-z0-9_-]+)*(\\|[A-Za-z]+(\\([^()]*\\))?)*\\}$"
            },
            "variableName": {
              "description": "a variable name (a letter or '_', then letters, digits, '_' or '-')",
              "type": "string",
              "pattern": "^[A-Za-z_][A-Za-z0-9_-]*$"
            },
            "integerOrVariable": {
              "description": "an integer or a ${variable}",
              "anyOf": [{ "type": "integer" }, { "$ref": "#/$defs/variable" }]
            },
            "numberOrVariable": {
              "description": "a number or a ${variable}",
              "anyOf": [{ "type": "number" }, { "$ref": "#/$defs/variable" }]
            },
            "objectOrVariable": {
              "description": "a mapping or a ${variable}",
              "anyOf": [{ "type": "object" }, { "$ref": "#/$defs/variable" }]
            },
            "tags": {
              "description": "Tags for --filter tag:NAME.",
              "type": "array",
              "items": {
                "description": "a tag (a letter or digit, then letters, digits, '.', '_' or '-')",
                "type": "string",
                "pattern": "^[A-Za-z0-9][A-Za-z0-9._-]*$"
              }
            },
            "noArguments": {
              "description": "nothing, or an empty mapping",
              "type": ["null", "object"],
              "maxProperties": 0
            },
            "given": {
              "title": "given key",
              "description": "What a case starts from. A file-level given applies to every case; a case's own keys replace the file's.",
              "type": "object",
              "properties": {
                "database": { "description": "The first database's name (default db).", "type": "string", "minLength": 1 },
                "collections": {
                  "description": "Collections to create first, as scope.collection or collection.",
                  "type": "array",
                  "items": { "type": "string", "minLength": 1 }
                },
                "documents": {
                  "description": "Documents to save first, in order.",
                  "type": "array",
                  "items": { "$ref": "#/$defs/seedDocument" }
                },
                "fixture": { "description": "A fixture to install as the first database, relative to the spec file: a <name>.quire database folder, a .quire.zip fixture archive, or a dataset folder (index.json beside its .jsonl files) built into a fixture first.", "type": "string", "minLength": 1 },
                "clock": { "$ref": "#/$defs/clock" },
                "options": { "description": "Engine-specific configuration.", "type": "object" }
              },
              "additionalProperties": false
            },
            "seedDocument": {
              "title": "document key",
              "type": "object",
              "properties": {
                "collection": { "type": "string", "minLength": 1 },
                "id": { "type": "string", "minLength": 1 },
                "body": { "type": "object" }
              },
              "required": ["id", "body"],
              "additionalProperties": false
            },
            "clock": {
              "description": "system, manual, or {manual: ISO-8601 start}",
              "anyOf": [
                { "enum": ["system", "manual"] },
                {
                  "title": "clock key",
                  "type": "object",
                  "properties": { "manual": { "type": "string", "minLength": 1 } },
                  "required": ["manual"],
                  "additionalProperties": false
                }
              ]
            },
            "case": {
              "title": "case key",
              "type": "object",
              "properties": {
                "name": { "description": "Unique in the file; vectors append their values.", "type": "string", "minLength": 1 },
                "tags": { "$ref": "#/$defs/tags" },
                "skip": { "description": "Report the case as skipped, with this reason.", "type": "string", "minLength": 1 },
                "reference": { "description": "How a real Couchbase Lite answers differently and why Quire keeps its answer (REFERENCE.md: a known difference).", "type": "string", "minLength": 1 },
                "covers": {
                  "description": "The Couchbase Lite tests the case checks, as Class.testName (Specs/COVERAGE.md).",
                  "type": "array",
                  "minItems": 1,
                  "items": { "type": "string", "pattern": "^[A-Z][A-Za-z0-9_]*\\.test[A-Za-z0-9_]*$" }
                },
                "given": { "$ref": "#/$defs/given" },
                "vectors": { "$ref": "#/$defs/vectors" },
                "steps": { "type": "array", "minItems": 1, "items": { "$ref": "#/$defs/step" } },
                "perf": { "$ref": "#/$defs/perf" }
              },
              "required": ["name"],
              "anyOf": [{ "required": ["steps"] }, { "required": ["perf"] }],
              "additionalProperties": false
            },
            "vectors": {
              "description": "a mapping of variables to lists of values, or a list of rows",
              "oneOf": [
                {
                  "type": "object",
                  "propertyNames": { "$ref": "#/$defs/variableName" },
                  "minProperties": 1,
                  "additionalProperties": {
                    "type": "array",
                    "minItems": 1,
                    "items": { "$ref": "#/$defs/vectorValue" }
                  }
                },
                {
                  "type": "array",
                  "minItems": 1,
                  "items": {
                    "type": "object",
                    "propertyNames": { "$ref": "#/$defs/variableName" },
                    "minProperties": 1,
                    "additionalProperties": { "$ref": "#/$defs/vectorValue" }
                  }
                }
              ]
            },
            "vectorValue": {
              "anyOf": [
                { "type": ["null", "boolean", "number", "string", "array"] },
                { "$ref": "#/$defs/generator" }
              ]
            },
            "generator": {
              "title": "generator",
              "description": "a generator",
              "type": "object",
              "properties": {
                "repeat": { "description": "Text to repeat count times.", "type": "string", "minLength": 1 },
                "count": { "type": "integer", "minimum": 0 },
                "random": { "description": "Random text from this alphabet, length characters long.", "enum": ["alnum", "alpha", "lower", "upper", "digits", "hex", "printable"] },
                "length": { "type": "integer", "minimum": 0 },
                "characters": { "description": "One value per character; a-z style ranges allowed.", "type": "string", "minLength": 1 },
                "except": { "description": "Characters to leave out, in the same syntax.", "type": "string", "minLength": 1 },
                "range": {
                  "description": "One value per integer from the first through the second.",
                  "type": "array",
                  "minItems": 2,
                  "maxItems": 2,
                  "items": { "type": "integer" }
                },
                "literal": { "description": "The value as written (for a mapping value)." }
              },
              "oneOf": [
                { "required": ["repeat"] },
                { "required": ["random"] },
                { "required": ["characters"] },
                { "required": ["range"] },
                { "required": ["literal"] }
              ],
              "dependentRequired": { "repeat": ["count"], "random": ["length"], "except": ["characters"] },
              "additionalProperties": false
            },
            "perf": {
              "title": "perf key",
              "description": "A performance case: run with --perf only.",
              "type": "object",
              "properties": {
                "workload": { "type": "array", "minItems": 1, "items": { "$ref": "#/$defs/step" } },
                "suite": { "description": "Spec files or a folder of them, relative to this file, run through the runner at each iteration instead of a workload (baseline engineReplay).", "type": "string", "minLength": 1 },
                "baseline": { "description": "A baseline the engine provides (rawSQLiteInsert ...), or engineReplay for a suite.", "type": "string", "minLength": 1 },
                "iterations": { "type": "integer", "minimum": 1 },
                "sizes": {
                  "description": "Two iteration counts for a scaling case, smaller first.",
                  "type": "array", "minItems": 2, "maxItems": 2, "items": { "type": "integer", "minimum": 1 }
                },
                "maxRatio": { "type": "number", "exclusiveMinimum": 0 },
                "maxGrowth": {
                  "description": "Most the cost per iteration may grow from the first size to the second (1.2: linear within 20%), or the time from the first thread count to the second.",
                  "type": "number", "exclusiveMinimum": 0
                },
                "threads": {
                  "description": "Threads the iterations are shared among; two counts, fewer first, compare them (maxGrowth limits the time on the second ÷ on the first).",
                  "oneOf": [
                    { "type": "integer", "minimum": 1, "maximum": 16 },
                    { "type": "array", "minItems": 2, "maxItems": 2, "items": { "type": "integer", "minimum": 1, "maximum": 16 } }
                  ]
                },
                "inBatch": { "description": "Run all iterations in one batch (one transaction).", "type": "boolean" },
                "prepare": {
                  "description": "Untimed steps run prepareIterations times in one batch before each round.",
                  "type": "array", "items": { "$ref": "#/$defs/step" }
                },
                "prepareIterations": { "type": "integer", "minimum": 1 },
                "rounds": { "description": "Measured rounds (default 5); the verdict is their median ratio.", "type": "integer", "minimum": 1, "maximum": 50 },
                "warmup": { "description": "Rounds run first and not counted (default 1).", "type": "integer", "minimum": 0, "maximum": 10 }
              },
              "required": ["baseline", "maxRatio"],
              "oneOf": [{ "required": ["iterations"] }, { "required": ["sizes"] }],
              "anyOf": [{ "required": ["workload"] }, { "required": ["suite"] }],
              "additionalProperties": false
            },
            "step": {
              "title": "step",
              "description": "One action, with an optional expectation and result binding.",
              "type": "object",
              "properties": {
                "createCollection": { "$ref": "#/$defs/collectionArguments" },
                "deleteCollection": { "$ref": "#/$defs/collectionArguments" },
                "collection": {
                  "title": "argument",
                  "type": "object",
                  "properties": {
                    "name": { "type": "string" },
                    "scope": { "type": "string" },
                    "fromScope": { "description": "Ask the held Scope object (scope.collection(name:)) instead of the database.", "type": "boolean" }
                  },
                  "required": ["name"],
                  "additionalProperties": false
                },
                "collections": {
                  "title": "argument",
                  "type": ["null", "object"],
                  "properties": {
                    "scope": { "type": "string" },
                    "fromScope": { "description": "Ask the held Scope object (scope.collections()) instead of the database.", "type": "boolean" }
                  },
                  "additionalProperties": false
                },
                "scope": { "$ref": "#/$defs/nameArgument" },
                "scopes": { "$ref": "#/$defs/noArguments" },
                "save": { "$ref": "#/$defs/saveArguments" },
                "get": { "$ref": "#/$defs/documentArguments" },
                "delete": { "$ref": "#/$defs/deleteArguments" },
                "purge": {
                  "title": "argument",
                  "type": "object",
                  "properties": {
                    "collection": { "type": "string" },
                    "id": { "type": "string" },
                    "object": { "$ref": "#/$defs/objectName" },
                    "database": { "description": "With object: purge it in this database's default collection.", "type": "string", "minLength": 1 }
                  },
                  "oneOf": [{ "required": ["id"] }, { "required": ["object"] }],
                  "dependentRequired": { "database": ["object"] },
                  "additionalProperties": false
                },
                "databaseInfo": { "$ref": "#/$defs/noArguments" },
                "databaseOf": {
                  "title": "argument",
                  "description": "The database a held collection or scope object belongs to: {name, isCurrent}.",
                  "type": "object",
                  "properties": { "collection": { "type": "string" }, "scope": { "type": "string" } },
                  "oneOf": [{ "required": ["collection"] }, { "required": ["scope"] }],
                  "additionalProperties": false
                },
                "blobCount": { "$ref": "#/$defs/noArguments" },
                "index": {
                  "title": "argument",
                  "type": "object",
                  "properties": { "collection": { "type": "string" }, "name": { "type": "string" } },
                  "required": ["name"],
                  "additionalProperties": false
                },
                "count": { "$ref": "#/$defs/collectionOnly" },
                "batch": { "$ref": "#/$defs/batchArguments" },
                "repeat": { "$ref": "#/$defs/repeatArguments" },
                "setExpiration": { "$ref": "#/$defs/setExpirationArguments" },
                "getExpiration": { "$ref": "#/$defs/documentArguments" },
                "advanceClock": {
                  "title": "argument",
                  "type": "object",
                  "properties": { "seconds": { "$ref": "#/$defs/numberOrVariable" } },
                  "required": ["seconds"],
                  "additionalProperties": false
                },
                "query": { "$ref": "#/$defs/queryArguments" },
                "createIndex": { "$ref": "#/$defs/indexArguments" },
                "deleteIndex": {
                  "title": "argument",
                  "type": "object",
                  "properties": { "collection": { "type": "string" }, "name": { "type": "string" } },
                  "required": ["name"],
                  "additionalProperties": false
                },
                "indexes": { "$ref": "#/$defs/collectionOnly" },
                "open": {
                  "title": "argument",
                  "type": "object",
                  "properties": {
                    "name": { "type": "string" },
                    "as": { "description": "Open another Database object on that file, held under this name.", "$ref": "#/$defs/variableName" },
                    "fullSync": { "description": "Open a new object whose configuration has this fullSync.", "type": "boolean" }
                  },
                  "required": ["name"],
                  "additionalProperties": false
                },
                "close": { "$ref": "#/$defs/noArguments" },
                "reopen": { "$ref": "#/$defs/noArguments" },
                "copyDatabase": {
                  "title": "argument",
                  "type": "object",
                  "properties": {
                    "from": { "description": "A database in the case directory.", "type": "string", "minLength": 1 },
                    "fromPath": { "description": "A database directory, relative to the spec file.", "type": "string", "minLength": 1 },
                    "to": { "type": "string", "minLength": 1 },
                    "asFiles": { "description": "Copy the files as they are, keeping the UUIDs.", "type": "boolean" }
                  },
                  "required": ["to"],
                  "oneOf": [{ "required": ["from"] }, { "required": ["fromPath"] }],
                  "additionalProperties": false
                },
                "databaseExists": { "$ref": "#/$defs/nameArgument" },
                "deleteDatabase": {
                  "title": "argument",
                  "type": "object",
                  "properties": {
                    "name": { "type": "string" },
                    "byName": { "description": "Delete through Database.delete(withName:), even while an object holds it open.", "type": "boolean" }
                  },
                  "required": ["name"],
                  "additionalProperties": false
                },
                "canOpen": { "$ref": "#/$defs/noArguments" },
                "isOpened": { "$ref": "#/$defs/noArguments" },
                "blockade": { "$ref": "#/$defs/noArguments" },
                "unblockade": { "$ref": "#/$defs/noArguments" },
                "closeHandles": { "$ref": "#/$defs/noArguments" },
                "purgeFreeHandles": { "$ref": "#/$defs/noArguments" },
                "tag": {
                  "title": "argument",
                  "description": "The tag shared by every object on the file; set: changes it first.",
                  "type": ["null", "object"],
                  "properties": { "set": { "$ref": "#/$defs/integerOrVariable" } },
                  "additionalProperties": false
                },
                "saveBlob": {
                  "title": "argument",
                  "type": "object",
                  "properties": {
                    "content": { "description": "The blob's content, as UTF-8 text.", "type": "string" },
                    "contentType": { "type": "string", "minLength": 1 },
                    "object": { "$ref": "#/$defs/objectName" }
                  },
                  "oneOf": [{ "required": ["content"] }, { "required": ["object"] }],
                  "additionalProperties": false
                },
                "blobContent": {
                  "title": "argument",
                  "type": "object",
                  "properties": { "blob": { "$ref": "#/$defs/objectOrVariable" } },
                  "required": ["blob"],
                  "additionalProperties": false
                },
                "maintenance": {
                  "title": "argument",
                  "type": "object",
                  "properties": {
                    "type": { "enum": ["compact", "reindex", "integrityCheck", "optimize", "fullOptimize"] }
                  },
                  "required": ["type"],
                  "additionalProperties": false
                },
                "buildFixture": {
                  "title": "argument",
                  "type": "object",
                  "properties": {
                    "recipe": { "description": "A recipe file, relative to the spec file.", "type": "string", "minLength": 1 },
                    "recipeText": { "description": "Recipe YAML written in the spec.", "type": "string", "minLength": 1 },
                    "remoteURL": { "description": "Replaces the URL of the recipe's remote source.", "type": "string", "minLength": 1 }
                  },
                  "oneOf": [{ "required": ["recipe"] }, { "required": ["recipeText"] }],
                  "additionalProperties": false
                },
                "verifyFixture": {
                  "title": "argument",
                  "type": "object",
                  "properties": { "archive": { "description": "A fixture archive, relative to the spec file.", "type": "string", "minLength": 1 } },
                  "required": ["archive"],
                  "additionalProperties": false
                },
                "installFixture": {
                  "title": "argument",
                  "type": "object",
                  "properties": {
                    "archive": { "description": "A fixture archive, relative to the spec file.", "type": "string", "minLength": 1 },
                    "name": { "type": "string", "minLength": 1 },
                    "ifAbsent": { "type": "boolean" }
                  },
                  "required": ["archive", "name"],
                  "additionalProperties": false
                },
                "serve": {
                  "title": "argument",
                  "type": "object",
                  "properties": {
                    "database": { "description": "A database of the case directory.", "type": "string", "minLength": 1 },
                    "readOnly": { "type": "boolean" },
                    "conflicts": { "description": "refuse (Couchbase Lite's listener, the default) or keep (CouchDB).", "enum": ["keep", "refuse"] }
                  },
                  "required": ["database"],
                  "additionalProperties": false
                },
                "request": {
                  "title": "argument",
                  "type": "object",
                  "properties": {
                    "method": { "enum": ["GET", "PUT", "POST", "DELETE", "HEAD"] },
                    "url": { "description": "The URL, usually under a served database's ${server.url}.", "type": "string", "minLength": 1 },
                    "body": { "description": "Sent as JSON." }
                  },
                  "required": ["url"],
                  "additionalProperties": false
                },
                "replicate": {
                  "title": "argument",
                  "type": "object",
                  "properties": {
                    "url": { "description": "The remote database's URL.", "type": "string", "minLength": 1 },
                    "database": { "description": "The local database (default: the current one).", "type": "string", "minLength": 1 },
                    "type": { "enum": ["push", "pull", "pushAndPull"] },
                    "collections": { "type": "array", "items": { "type": "string" } },
                    "channels": { "type": "array", "items": { "type": "string" } },
                    "documentIDs": { "type": "array", "items": { "type": "string" } },
                    "reset": { "type": "boolean" }
                  },
                  "required": ["url", "type"],
                  "additionalProperties": false
                },
                "checkpointDoctor": {
                  "title": "argument",
                  "type": "object",
                  "properties": {
                    "url": { "description": "The remote database's URL.", "type": "string", "minLength": 1 },
                    "database": { "description": "The local database (default: the current one).", "type": "string", "minLength": 1 },
                    "collection": { "type": "string" },
                    "channels": { "type": "array", "items": { "type": "string" } },
                    "documentIDs": { "type": "array", "items": { "type": "string" } }
                  },
                  "required": ["url"],
                  "additionalProperties": false
                },
                "getValue": {
                  "title": "argument",
                  "type": "object",
                  "properties": {
                    "collection": { "type": "string" },
                    "id": { "type": "string" },
                    "key": { "description": "A top-level key of the document.", "type": "string" },
                    "as": {
                      "description": "the typed getter to read it with (int, int64, double, float, boolean, string, date, array, dictionary, blob, number) or a ${variable}",
                      "anyOf": [
                        { "enum": ["int", "int64", "double", "float", "boolean", "string", "date", "array", "dictionary", "blob", "number"] },
                        { "$ref": "#/$defs/variable" }
                      ]
                    }
                  },
                  "required": ["id", "key", "as"],
                  "additionalProperties": false
                },
                "explain": { "$ref": "#/$defs/explainArguments" },
                "addChangeListener": {
                  "title": "argument",
                  "type": "object",
                  "properties": {
                    "name": { "description": "The name changes reads the recorded IDs by.", "type": "string", "minLength": 1 },
                    "collection": { "type": "string" },
                    "id": { "description": "Listen to this document only.", "type": "string" },
                    "query": { "description": "Listen to this query (SQL++) as a live query; waitForChange waits for its updates.", "type": "string", "minLength": 1 },
                    "parameters": { "description": "The live query's named parameters.", "$ref": "#/$defs/objectOrVariable" },
                    "sameQueryAs": { "description": "Add this listener to the query object of that live query listener.", "type": "string", "minLength": 1 },
                    "keepToken": { "description": "false: drop the listener's token at once; it must go on hearing changes.", "type": "boolean" }
                  },
                  "required": ["name"],
                  "additionalProperties": false
                },
                "changes": { "$ref": "#/$defs/nameArgument" },
                "removeChangeListener": { "$ref": "#/$defs/nameArgument" },
                "waitForChange": { "$ref": "#/$defs/nameArgument" },
                "setQueryParameters": {
                  "title": "argument",
                  "type": "object",
                  "properties": {
                    "name": { "description": "A live query listener.", "type": "string", "minLength": 1 },
                    "parameters": { "$ref": "#/$defs/objectOrVariable" }
                  },
                  "required": ["name", "parameters"],
                  "additionalProperties": false
                },
                "generateBlob": {
                  "title": "argument",
                  "type": "object",
                  "properties": {
                    "size": { "description": "The number of bytes.", "$ref": "#/$defs/integerOrVariable" },
                    "seed": { "description": "The SplitMix64 seed of the bytes.", "$ref": "#/$defs/integerOrVariable" },
                    "contentType": { "type": "string", "minLength": 1 }
                  },
                  "required": ["size", "seed"],
                  "additionalProperties": false
                },
                "readBlob": {
                  "title": "argument", "type": "object", "required": ["blob"], "additionalProperties": false,
                  "properties": { "blob": { "$ref": "#/$defs/objectOrVariable" } }
                },
                "damageBlob": {
                  "title": "argument",
                  "type": "object",
                  "properties": { "digest": { "description": "The digest of a stored blob.", "type": "string", "minLength": 1 } },
                  "required": ["digest"],
                  "additionalProperties": false
                },
                "startReplicator": {
                  "title": "argument",
                  "description": "Starts a replicator held under name until stopReplicator or the end of the case.",
                  "type": "object",
                  "properties": {
                    "name": { "type": "string", "minLength": 1 },
                    "url": { "description": "The remote database's URL.", "type": "string", "minLength": 1 },
                    "database": { "description": "The local database (default: the current one).", "type": "string", "minLength": 1 },
                    "type": { "enum": ["push", "pull", "pushAndPull"] },
                    "continuous": {
                      "description": "Keep replicating until stopped (default true).",
                      "anyOf": [{ "type": "boolean" }, { "$ref": "#/$defs/variable" }]
                    },
                    "enableAutoPurge": {
                      "description": "Purge pulled documents whose access was removed (default true).",
                      "anyOf": [{ "type": "boolean" }, { "$ref": "#/$defs/variable" }]
                    },
                    "reset": { "type": "boolean" },
                    "collections": {
                      "description": "Full names sharing the step's options, or a mapping of each full name to its own options.",
                      "anyOf": [
                        { "type": "array", "items": { "type": "string" } },
                        { "type": "object", "additionalProperties": { "$ref": "#/$defs/replicatorCollection" } }
                      ]
                    },
                    "documentIDs": { "type": "array", "items": { "type": "string" } },
                    "channels": { "type": "array", "items": { "type": "string" } },
                    "pushFilter": { "$ref": "#/$defs/replicationFilter" },
                    "pullFilter": { "$ref": "#/$defs/replicationFilter" },
                    "conflictResolver": { "$ref": "#/$defs/conflictResolver" }
                  },
                  "required": ["name", "url", "type"],
                  "additionalProperties": false
                },
                "waitForReplicator": {
                  "title": "argument",
                  "description": "Waits until the named replicator is idle or stopped; returns {activity, error, errorCode}.",
                  "type": "object",
                  "properties": { "name": { "type": "string", "minLength": 1 }, "activity": { "enum": ["idle", "stopped"] } },
                  "required": ["name"],
                  "additionalProperties": false
                },
                "stopReplicator": { "$ref": "#/$defs/nameArgument" },
                "pendingDocumentIDs": {
                  "title": "argument",
                  "type": "object",
                  "properties": { "name": { "type": "string", "minLength": 1 }, "collection": { "type": "string" } },
                  "required": ["name"],
                  "additionalProperties": false
                },
                "isDocumentPending": {
                  "title": "argument",
                  "type": "object",
                  "properties": { "name": { "type": "string", "minLength": 1 }, "id": { "type": "string" }, "collection": { "type": "string" } },
                  "required": ["name", "id"],
                  "additionalProperties": false
                },
                "replicationEvents": { "$ref": "#/$defs/nameArgument" },
                "waitForDocument": {
                  "title": "argument",
                  "description": "Waits until a database holds the document (or its tombstone, or a property value); returns its revision ID.",
                  "type": "object",
                  "properties": {
                    "database": { "type": "string", "minLength": 1 },
                    "collection": { "type": "string" },
                    "id": { "type": "string" },
                    "deleted": { "type": "boolean" },
                    "key": { "type": "string", "minLength": 1 },
                    "equals": { "description": "The value key must have." }
                  },
                  "required": ["id"],
                  "additionalProperties": false
                },
                "setValue": { "$ref": "#/$defs/containerChange" },
                "insertValue": { "$ref": "#/$defs/containerChange" },
                "addValue": {
                  "title": "argument",
                  "description": "Appends to the array at path (left out: the held array itself).",
                  "type": "object",
                  "properties": {
                    "object": { "$ref": "#/$defs/objectName" },
                    "path": { "type": "string" },
                    "value": { "description": "The value (a mapping or list makes a nested container)." },
                    "held": { "$ref": "#/$defs/objectName" },
                    "setter": { "$ref": "#/$defs/setter" }
                  },
                  "required": ["object"],
                  "oneOf": [{ "required": ["value"] }, { "required": ["held"] }],
                  "additionalProperties": false
                },
                "newDocument": {
                  "title": "argument",
                  "description": "A new, unsaved MutableDocument, held under as:; id left out: a generated one.",
                  "type": ["null", "object"],
                  "properties": {
                    "id": { "type": "string" },
                    "body": { "$ref": "#/$defs/objectOrVariable" },
                    "json": { "type": "string" }
                  },
                  "additionalProperties": false
                },
                "newDictionary": { "$ref": "#/$defs/newContainer" },
                "newArray": { "$ref": "#/$defs/newContainer" },
                "newBlob": {
                  "title": "argument",
                  "description": "A new blob holding UTF-8 text in memory, not saved, held under as:.",
                  "type": "object",
                  "properties": {
                    "content": { "type": "string" },
                    "contentType": { "type": "string", "minLength": 1 }
                  },
                  "required": ["content"],
                  "additionalProperties": false
                },
                "sameObject": { "$ref": "#/$defs/objectPair" },
                "equals": { "$ref": "#/$defs/objectPair" },
                "removeValue": {
                  "title": "argument",
                  "type": "object",
                  "properties": { "object": { "$ref": "#/$defs/objectName" }, "path": { "$ref": "#/$defs/keyPath" } },
                  "required": ["object", "path"],
                  "additionalProperties": false
                },
                "valueAt": {
                  "title": "argument",
                  "type": "object",
                  "properties": {
                    "object": { "$ref": "#/$defs/objectName" },
                    "path": { "description": "A key path (a.b.0); left out or empty: the document itself.", "type": "string" },
                    "as": { "enum": ["int", "int64", "double", "float", "boolean", "string", "date", "array", "dictionary", "blob", "number", "value", "count", "keys", "contains", "json", "content", "enumerated"] }
                  },
                  "required": ["object", "as"],
                  "additionalProperties": false
                },
                "isBlob": {
                  "title": "argument", "type": "object", "required": ["properties"], "additionalProperties": false,
                  "properties": { "properties": { "$ref": "#/$defs/objectOrVariable" } }
                },
                "readBlobBytes": {
                  "title": "argument",
                  "type": "object",
                  "properties": { "blob": { "$ref": "#/$defs/objectOrVariable" }, "count": { "$ref": "#/$defs/integerOrVariable" } },
                  "required": ["blob", "count"],
                  "additionalProperties": false
                },
                "toMutable": {
                  "title": "argument",
                  "description": "A mutable copy of a held document, dictionary or array; with as: the copy is held under that name.",
                  "type": "object",
                  "properties": { "object": { "$ref": "#/$defs/objectName" } },
                  "required": ["object"],
                  "additionalProperties": false
                },
                "object": {
                  "title": "argument",
                  "description": "A held object's own state: a document's properties and _meta {id, collection, revisionID, sequence, isDeleted, mutable}; a dictionary's or array's value; a blob's properties.",
                  "type": "object",
                  "properties": { "name": { "$ref": "#/$defs/objectName" } },
                  "required": ["name"],
                  "additionalProperties": false
                },
                "set": {
                  "description": "Variables to bind: name: value.",
                  "type": "object",
                  "minProperties": 1,
                  "propertyNames": { "$ref": "#/$defs/variableName" }
                },
                "inspect": { "description": "A value to check with expect (usually a ${variable})." },
                "expect": { "$ref": "#/$defs/expectation" },
                "as": { "$ref": "#/$defs/variableName" }
              },
              "oneOf": [
                { "required": ["createCollection"] },
                { "required": ["deleteCollection"] },
                { "required": ["collection"] },
                { "required": ["collections"] },
                { "required": ["scope"] },
                { "required": ["scopes"] },
                { "required": ["save"] },
                { "required": ["get"] },
                { "required": ["delete"] },
                { "required": ["purge"] },
                { "required": ["count"] },
                { "required": ["batch"] },
                { "required": ["repeat"] },
                { "required": ["setExpiration"] },
                { "required": ["getExpiration"] },
                { "required": ["advanceClock"] },
                { "required": ["query"] },
                { "required": ["createIndex"] },
                { "required": ["deleteIndex"] },
                { "required": ["indexes"] },
                { "required": ["open"] },
                { "required": ["close"] },
                { "required": ["reopen"] },
                { "required": ["copyDatabase"] },
                { "required": ["databaseExists"] },
                { "required": ["deleteDatabase"] },
                { "required": ["saveBlob"] },
                { "required": ["blobContent"] },
                { "required": ["maintenance"] },
                { "required": ["buildFixture"] },
                { "required": ["verifyFixture"] },
                { "required": ["installFixture"] },
                { "required": ["serve"] },
                { "required": ["request"] },
                { "required": ["replicate"] },
                { "required": ["checkpointDoctor"] },
                { "required": ["getValue"] },
                { "required": ["explain"] },
                { "required": ["addChangeListener"] },
                { "required": ["changes"] },
                { "required": ["removeChangeListener"] },
                { "required": ["waitForChange"] },
                { "required": ["setQueryParameters"] },
                { "required": ["generateBlob"] },
                { "required": ["readBlob"] },
                { "required": ["damageBlob"] },
                { "required": ["startReplicator"] },
                { "required": ["waitForReplicator"] },
                { "required": ["stopReplicator"] },
                { "required": ["pendingDocumentIDs"] },
                { "required": ["isDocumentPending"] },
                { "required": ["replicationEvents"] },
                { "required": ["waitForDocument"] },
                { "required": ["setValue"] },
                { "required": ["insertValue"] },
                { "required": ["addValue"] },
                { "required": ["newDocument"] },
                { "required": ["newDictionary"] },
                { "required": ["newArray"] },
                { "required": ["newBlob"] },
                { "required": ["sameObject"] },
                { "required": ["equals"] },
                { "required": ["removeValue"] },
                { "required": ["valueAt"] },
                { "required": ["isBlob"] },
                { "required": ["readBlobBytes"] },
                { "required": ["toMutable"] },
                { "required": ["canOpen"] },
                { "required": ["isOpened"] },
                { "required": ["blockade"] },
                { "required": ["unblockade"] },
                { "required": ["closeHandles"] },
                { "required": ["purgeFreeHandles"] },
                { "required": ["tag"] },
                { "required": ["object"] },
                { "required": ["databaseInfo"] },
                { "required": ["databaseOf"] },
                { "required": ["blobCount"] },
                { "required": ["index"] },
                { "required": ["set"] },
                { "required": ["inspect"] }
              ],
              "additionalProperties": false
            },
            "replicatorCollection": {
              "title": "argument",
              "description": "One collection's replication options.",
              "type": ["null", "object"],
              "properties": {
                "documentIDs": { "type": "array", "items": { "type": "string" } },
                "channels": { "type": "array", "items": { "type": "string" } },
                "pushFilter": { "$ref": "#/$defs/replicationFilter" },
                "pullFilter": { "$ref": "#/$defs/replicationFilter" },
                "conflictResolver": { "$ref": "#/$defs/conflictResolver" }
              },
              "additionalProperties": false
            },
            "replicationFilter": {
              "anyOf": [{ "$ref": "#/$defs/variable" }, { "$ref": "#/$defs/filterConditions" }]
            },
            "filterConditions": {
              "title": "filter key",
              "description": "A document passes when every condition given holds.",
              "type": "object",
              "properties": {
                "documentIDs": { "type": "array", "items": { "type": "string" } },
                "key": { "description": "A top-level property, compared with equals.", "type": "string", "minLength": 1 },
                "equals": { "description": "The value key must have." },
                "deleted": { "type": "boolean" },
                "accessRemoved": { "type": "boolean" }
              },
              "dependentRequired": { "key": ["equals"], "equals": ["key"] },
              "additionalProperties": false
            },
            "conflictResolver": {
              "description": "localWins, remoteWins, delete, or {merge: [keys taken from the remote revision]}",
              "anyOf": [
                { "enum": ["localWins", "remoteWins", "delete"] },
                { "$ref": "#/$defs/variable" },
                {
                  "title": "resolver key",
                  "type": "object",
                  "properties": { "merge": { "type": "array", "items": { "type": "string" } } },
                  "required": ["merge"],
                  "additionalProperties": false
                }
              ]
            },
            "keyPath": {
              "description": "a key path: keys and array indexes separated by dots (a.b.0)",
              "type": "string",
              "minLength": 1
            },
            "containerChange": {
              "title": "argument",
              "type": "object",
              "properties": {
                "object": { "$ref": "#/$defs/objectName" },
                "path": { "description": "A key path (a.b.0); insertValue needs one, setValue without one replaces the whole content (setData).", "type": "string" },
                "value": { "description": "The value (a mapping or list makes a nested container)." },
                "held": { "$ref": "#/$defs/objectName" },
                "setter": { "$ref": "#/$defs/setter" }
              },
              "required": ["object"],
              "oneOf": [{ "required": ["value"] }, { "required": ["held"] }],
              "additionalProperties": false
            },
            "setter": {
              "description": "the typed setter called (setInt, insertFloat, addDate ...); value (the default) is setValue",
              "enum": ["value", "string", "int", "int64", "double", "float", "boolean", "date", "number", "array", "dictionary", "blob"]
            },
            "newContainer": {
              "title": "argument",
              "description": "A new mutable dictionary or array, empty, from value or from json, held under as:.",
              "type": ["null", "object"],
              "properties": {
                "value": { "description": "The content (a mapping for newDictionary, a list for newArray)." },
                "json": { "type": "string" }
              },
              "additionalProperties": false
            },
            "objectPair": {
              "title": "argument",
              "type": "object",
              "properties": { "object": { "$ref": "#/$defs/objectName" }, "other": { "$ref": "#/$defs/objectName" } },
              "required": ["object", "other"],
              "additionalProperties": false
            },
            "collectionArguments": {
              "title": "argument",
              "type": "object",
              "properties": { "name": { "type": "string" }, "scope": { "type": "string" } },
              "required": ["name"],
              "additionalProperties": false
            },
            "nameArgument": {
              "title": "argument",
              "type": "object",
              "properties": { "name": { "type": "string" } },
              "required": ["name"],
              "additionalProperties": false
            },
            "collectionOnly": {
              "title": "argument",
              "type": ["null", "object"],
              "properties": { "collection": { "type": "string" } },
              "additionalProperties": false
            },
            "queryArguments": {
              "title": "argument",
              "type": "object",
              "properties": {
                "sql": { "type": "string", "minLength": 1 },
                "parameters": { "$ref": "#/$defs/objectOrVariable" },
                "result": { "description": "How each row is given back: rows (mappings by key, the default), arrays (lists by index), json (each row's toJSON text), or columnNames (the column names instead of rows).", "enum": ["rows", "arrays", "json", "columnNames"] },
                "reads": { "description": "Reads of the result set in turn: next (a row or null), all (the rows left).", "type": "array", "items": { "enum": ["next", "all"] } }
              },
              "required": ["sql"],
              "additionalProperties": false
            },
            "explainArguments": {
              "title": "argument",
              "type": "object",
              "properties": {
                "sql": { "type": "string", "minLength": 1 },
                "parameters": { "$ref": "#/$defs/objectOrVariable" }
              },
              "required": ["sql"],
              "additionalProperties": false
            },
            "documentArguments": {
              "title": "argument",
              "type": "object",
              "properties": { "collection": { "type": "string" }, "id": { "type": "string" } },
              "required": ["id"],
              "additionalProperties": false
            },
            "objectName": {
              "description": "the name a step's as: gave a held object (a document, dictionary, array or blob)",
              "type": "string",
              "pattern": "^[A-Za-z_][A-Za-z0-9_-]*$"
            },
            "concurrency": {
              "description": "lastWriteWins or failOnConflict",
              "anyOf": [{ "enum": ["lastWriteWins", "failOnConflict"] }, { "$ref": "#/$defs/variable" }]
            },
            "saveArguments": {
              "title": "argument",
              "type": "object",
              "properties": {
                "collection": { "type": "string" },
                "id": { "type": "string" },
                "body": { "$ref": "#/$defs/objectOrVariable" },
                "json": { "description": "The body as JSON text, for the engine's own parser.", "type": "string" },
                "from": { "$ref": "#/$defs/objectOrVariable" },
                "object": { "$ref": "#/$defs/objectName" },
                "database": { "description": "With object: the database to save it in (another one than the object's must fail).", "type": "string", "minLength": 1 },
                "merge": { "$ref": "#/$defs/objectOrVariable" },
                "unset": { "type": "array", "items": { "type": "string" } },
                "concurrency": { "$ref": "#/$defs/concurrency" },
                "conflictHandler": {
                  "description": "With object: save through a conflict handler that keeps mine, keeps theirs, cancels, or runs a script: on its first call save firstCallSaves into the stored document, take the merge keys from theirs, add theirs' keys mine lacks (addTheirs), set set.",
                  "anyOf": [
                    { "enum": ["keepMine", "keepTheirs", "cancel"] },
                    {
                      "type": "object",
                      "properties": {
                        "merge": { "type": "array", "minItems": 1, "items": { "type": "string" } },
                        "addTheirs": { "type": "boolean" },
                        "set": { "type": "object" },
                        "firstCallSaves": { "type": "object" }
                      },
                      "minProperties": 1,
                      "additionalProperties": false
                    }
                  ]
                }
              },
              "oneOf": [{ "required": ["body"] }, { "required": ["json"] }, { "required": ["from"] }, { "required": ["object"] }],
              "dependentRequired": { "database": ["object"], "conflictHandler": ["object"] },
              "additionalProperties": false
            },
            "deleteArguments": {
              "title": "argument",
              "type": "object",
              "properties": {
                "collection": { "type": "string" },
                "id": { "type": "string" },
                "from": { "$ref": "#/$defs/objectOrVariable" },
                "object": { "$ref": "#/$defs/objectName" },
                "concurrency": { "$ref": "#/$defs/concurrency" }
              },
              "oneOf": [{ "required": ["id"] }, { "required": ["from"] }, { "required": ["object"] }],
              "additionalProperties": false
            },
            "repeatArguments": {
              "title": "argument",
              "type": "object",
              "properties": {
                "times": { "description": "How many times the steps run (0 or more).", "$ref": "#/$defs/integerOrVariable" },
                "variable": { "description": "A variable holding the iteration, from 0.", "$ref": "#/$defs/variableName" },
                "from": { "description": "The variable's first value (default 0).", "$ref": "#/$defs/integerOrVariable" },
                "by": { "description": "Added to the variable each iteration (default 1; negative counts down).", "$ref": "#/$defs/integerOrVariable" },
                "steps": { "type": "array", "minItems": 1, "items": { "$ref": "#/$defs/step" } }
              },
              "required": ["times", "steps"],
              "additionalProperties": false
            },
            "batchArguments": {
              "title": "argument",
              "type": "object",
              "properties": {
                "steps": { "type": "array", "minItems": 1, "items": { "$ref": "#/$defs/step" } },
                "throw": { "description": "Abort the batch after its steps.", "type": "boolean" },
                "throwAfter": { "description": "Abort the batch after this many of its steps.", "type": "integer", "minimum": 0 }
              },
              "required": ["steps"],
              "additionalProperties": false
            },
            "setExpirationArguments": {
              "title": "argument",
              "type": "object",
              "properties": {
                "collection": { "type": "string" },
                "id": { "type": "string" },
                "at": {
                  "description": "an ISO-8601 time, milliseconds since 1970, or null to clear",
                  "type": ["string", "integer", "null"]
                },
                "in": { "$ref": "#/$defs/numberOrVariable" }
              },
              "required": ["id"],
              "oneOf": [{ "required": ["at"] }, { "required": ["in"] }],
              "additionalProperties": false
            },
            "indexArguments": {
              "title": "argument",
              "type": "object",
              "properties": {
                "collection": { "type": "string" },
                "name": { "type": "string" },
                "kind": { "enum": ["value", "fullText", "array"] },
                "expressions": { "type": "array", "items": { "type": "string" } },
                "path": { "description": "An array index's path to the array (contacts[].phones).", "type": "string" },
                "where": { "type": "string", "minLength": 1 },
                "language": { "type": "string", "minLength": 1 },
                "ignoreAccents": { "type": "boolean" }
              },
              "required": ["name"],
              "anyOf": [{ "required": ["expressions"] }, { "required": ["path"] }],
              "additionalProperties": false
            },
            "patterns": {
              "description": "a regular expression searched in the text result, or a list of them",
              "anyOf": [
                { "type": "string", "minLength": 1 },
                { "type": "array", "minItems": 1, "items": { "type": "string", "minLength": 1 } }
              ]
            },
            "keyPaths": {
              "description": "a key path of the resulting document, or a list of them",
              "anyOf": [
                { "type": "string", "minLength": 1 },
                { "type": "array", "minItems": 1, "items": { "type": "string", "minLength": 1 } }
              ]
            },
            "documentTarget": {
              "description": "true (the step's document) or {id, collection}",
              "anyOf": [
                { "const": true },
                {
                  "title": "document key",
                  "type": "object",
                  "properties": { "collection": { "type": "string" }, "id": { "type": "string" } },
                  "required": ["id"],
                  "additionalProperties": false
                }
              ]
            },
            "expectation": {
              "title": "expectation",
              "description": "What the step must do; without it, the step must simply succeed.",
              "type": "object",
              "properties": {
                "ok": { "description": "The step succeeds.", "const": true },
                "error": {
                  "description": "an error code name, or {domain, code, messageContains}",
                  "anyOf": [
                    { "type": "string", "minLength": 1 },
                    {
                      "title": "error key",
                      "type": "object",
                      "properties": {
                        "domain": { "type": "string", "minLength": 1 },
                        "code": { "type": "string", "minLength": 1 },
                        "messageContains": { "type": "string", "minLength": 1 }
                      },
                      "minProperties": 1,
                      "additionalProperties": false
                    }
                  ]
                },
                "value": { "description": "The result equals this value." },
                "matches": { "description": "The result has these keys and elements (partial match)." },
                "count": { "$ref": "#/$defs/integerOrVariable" },
                "notFound": { "$ref": "#/$defs/documentTarget" },
                "deleted": { "$ref": "#/$defs/documentTarget" },
                "notDeleted": { "$ref": "#/$defs/documentTarget" },
                "purged": { "$ref": "#/$defs/documentTarget" },
                "notPurged": { "$ref": "#/$defs/documentTarget" },
                "shouldNotExist": { "$ref": "#/$defs/documentTarget" },
                "unexpectedPropertyAt": {
                  "description": "a key path, or a list of key paths",
                  "anyOf": [
                    { "type": "string", "minLength": 1 },
                    { "type": "array", "minItems": 1, "items": { "type": "string", "minLength": 1 } }
                  ]
                },
                "missingBlob": { "description": "The key path of a blob whose content is not stored.", "type": "string", "minLength": 1 },
                "textMatches": { "$ref": "#/$defs/patterns" },
                "textLacks": { "$ref": "#/$defs/patterns" },
                "notEqual": { "description": "The result differs from this value (_meta left out unless listed)." },
                "contains": { "$ref": "#/$defs/keyPaths" },
                "lacks": { "$ref": "#/$defs/keyPaths" },
                "keyCount": {
                  "description": "How many keys the resulting document has, _meta not counted.",
                  "anyOf": [{ "type": "integer", "minimum": 0 }, { "$ref": "#/$defs/variable" }]
                },
                "typed": { "description": "value, matches and notEqual compare numbers with their JSON type (1 is not 1.0).", "type": "boolean" }
              },
              "minProperties": 1,
              "additionalProperties": false
            }
          }
        }
        """#

    /// The parsed, checked schema.
    static let validator: Result<JSONSchema, any Error> = Result { try JSONSchema(json: json) }
}
