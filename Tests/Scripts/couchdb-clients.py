#!/usr/bin/env python3
"""Runs five Python CouchDB clients' own README operations against `quire serve`.

    python3 -m venv /tmp/pyclients
    /tmp/pyclients/bin/pip install couchdb pycouchdb ibmcloudant aiocouch couchdb3
    /tmp/pyclients/bin/python Tests/Scripts/couchdb-clients.py [--quire .build/debug/quire]

Starts `quire serve` on a scratch folder (loopback, a free port, --create-databases
--allow-delete, a user and password so the clients' logins are exercised), then for each
client: log in where the client does, create a database, save, get, update, read the
revision, delete, read the changes feed (a continuous feed with a heartbeat where the client
streams it), and delete the database. Prints one line per operation and exits 1 if any
failed; a client that is not installed is reported and skipped.
"""

import argparse
import asyncio
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import traceback

USER, PASSWORD = "quire", "s3cret-pw"
results = []


def step(client, name, function):
    """Runs one operation; records PASS or FAIL with the error."""
    try:
        detail = function()
        results.append((client, name, True, "" if detail is None else str(detail)))
        return detail
    except Exception as error:  # a client's failure is a result, not the end of the run
        message = f"{type(error).__name__}: {error}".replace("\n", " ")[:300]
        results.append((client, name, False, message))
        if os.environ.get("VERBOSE"):
            traceback.print_exc()
        return None


def expect(condition, message):
    if not condition:
        raise AssertionError(message)


# MARK: clients


def couchdb_python(url):
    import couchdb

    client = "couchdb 1.2"
    server = couchdb.Server(url)
    server.resource.credentials = (USER, PASSWORD)
    step(client, "login (POST _session)", lambda: expect(server.login(USER, PASSWORD), "no token"))
    db = step(client, "create db", lambda: server.create("py-couchdb"))
    if db is None:
        return
    saved = step(client, "save (POST /db)", lambda: db.save({"type": "Person", "name": "John Doe"}))
    doc_id = saved[0] if saved else "missing"
    doc = step(client, "get", lambda: db[doc_id])

    def update():
        doc["name"] = "Mary Jane"
        db.save(doc)
        expect(db[doc_id]["name"] == "Mary Jane", "not updated")

    step(client, "update", update)
    step(client, "rev via ETag (HEAD)", lambda: expect(db.get(doc_id)["_rev"] == doc["_rev"], "rev differs"))

    def changes():
        # With a heartbeat the feed never times out (as in CouchDB): stop at the first change.
        seen = []
        for change in db.changes(feed="continuous", heartbeat=100, since=0):
            seen.append(change.get("id"))
            break
        expect(seen == [doc_id], f"changes {seen}")

    step(client, "continuous changes with heartbeat", changes)
    step(client, "delete doc", lambda: db.delete(db[doc_id]))
    step(client, "delete db", lambda: server.delete("py-couchdb"))
    step(client, "logout", lambda: server.logout(server.login(USER, PASSWORD)))


def pycouchdb_client(url):
    import pycouchdb

    client = "pycouchdb 1.17"
    authenticated = url.replace("http://", f"http://{USER}:{PASSWORD}@")
    server = pycouchdb.Server(authenticated)
    db = step(client, "create db", lambda: server.create("py-pycouchdb"))
    if db is None:
        return
    doc = step(client, "save", lambda: db.save({"name": "FOO"}))
    doc_id = doc["_id"] if doc else "missing"
    fetched = step(client, "get", lambda: db.get(doc_id))

    def update():
        fetched["name"] = "BAR"
        db.save(fetched)
        expect(db.get(doc_id)["name"] == "BAR", "not updated")

    step(client, "update", update)
    step(client, "changes list", lambda: expect(doc_id in [c["id"] for c in db.changes_list()[1]], "missing"))

    def feed():
        seen = []

        class Reader(pycouchdb.feedreader.BaseFeedReader):
            def on_message(self, message):
                seen.append(message["id"])
                raise pycouchdb.exceptions.FeedReaderExited()

        db.changes_feed(Reader(), feed="continuous", heartbeat=100)
        expect(seen == [doc_id], f"changes {seen}")

    step(client, "continuous changes feed", feed)
    step(client, "delete doc (rev from ETag)", lambda: db.delete(doc_id))
    step(client, "delete db", lambda: server.delete("py-pycouchdb"))


def ibmcloudant_client(url):
    from ibm_cloud_sdk_core.authenticators import BasicAuthenticator
    from ibmcloudant.cloudant_v1 import CloudantV1, Document
    from ibmcloudant.couchdb_session_authenticator import CouchDbSessionAuthenticator

    client = "ibmcloudant 0.11"
    for label, authenticator in [
        ("basic", BasicAuthenticator(USER, PASSWORD)),
        ("session", CouchDbSessionAuthenticator(USER, PASSWORD)),
    ]:
        service = CloudantV1(authenticator=authenticator)
        service.set_service_url(url)  # request bodies are gzipped by default
        name = f"py-cloudant-{label}"
        step(client, f"[{label}] create db", lambda: service.put_database(db=name).get_result())
        posted = step(
            client,
            f"[{label}] post document (gzipped)",
            lambda: service.post_document(db=name, document=Document(name="Bob Smith", joined="2019-01-24T10:42:99.000Z")).get_result(),
        )
        doc_id = posted["id"] if posted else "missing"
        doc = step(client, f"[{label}] get document", lambda: service.get_document(db=name, doc_id=doc_id).get_result())

        def update():
            doc["email"] = "bob@example.com"
            service.put_document(db=name, doc_id=doc_id, document=doc).get_result()
            expect(service.get_document(db=name, doc_id=doc_id).get_result()["email"] == "bob@example.com", "not updated")

        step(client, f"[{label}] update", update)
        step(client, f"[{label}] all docs", lambda: expect(len(service.post_all_docs(db=name, limit=1).get_result()["rows"]) == 1, "rows"))
        step(client, f"[{label}] changes", lambda: expect(doc_id in [c["id"] for c in service.post_changes(db=name).get_result()["results"]], "missing"))

        def delete():
            rev = service.get_document(db=name, doc_id=doc_id).get_result()["_rev"]
            service.delete_document(db=name, doc_id=doc_id, rev=rev).get_result()

        step(client, f"[{label}] delete doc", delete)
        step(client, f"[{label}] delete db", lambda: service.delete_database(db=name).get_result())


def aiocouch_client(url):
    from aiocouch import CouchDB

    client = "aiocouch 4.0"

    async def run():
        async with CouchDB(url, user=USER, password=PASSWORD) as couchdb:
            await couchdb.check_credentials()
            db = await couchdb.create("py-aiocouch")
            doc = await db.create("settings", data={"foo": "bar"})
            await doc.save()
            fetched = await db["settings"]
            expect(fetched["foo"] == "bar", "not saved")
            fetched["foo"] = "baz"
            await fetched.save()
            info = await fetched.info()
            expect(info["rev"] == fetched.rev, "rev differs")
            seen = []

            async def listen():
                async for event in db.changes(feed="continuous", heartbeat=100, since=0):
                    seen.append(event.id)
                    if len(seen) >= 2:
                        return

            task = asyncio.ensure_future(listen())
            await asyncio.sleep(0.5)  # heartbeats go by before the second change
            other = await db.create("second", data={"v": 1})
            await other.save()
            await asyncio.wait_for(task, 10)
            expect(seen == ["settings", "second"], f"changes {seen}")
            await fetched.delete()
            await db.delete()

    step(client, "login, create db, save, get, update, info (ETag), changes, delete", lambda: asyncio.run(run()))


def couchdb3_client(url):
    import couchdb3

    client = "couchdb3 3.5"
    server = step(client, "connect (cookie login)", lambda: couchdb3.Server(url, user=USER, password=PASSWORD))
    if server is None:
        return
    step(client, "up", lambda: expect(server.up(), "not up"))
    db = step(client, "create db", lambda: server.get("py-couchdb3") if "py-couchdb3" in server else server.create("py-couchdb3"))
    if db is None:
        return
    step(client, "save", lambda: db.save({"_id": "mydoc-id", "name": "Hello", "type": "World"}))

    def update():
        dbdoc = db.get("mydoc-id")
        dbdoc.update({"name": "Hello World"})
        db.save(dbdoc)

    step(client, "get and update", update)
    step(client, "rev (ETag) and save", lambda: db.save({"_id": "mydoc-id", "_rev": db.rev("mydoc-id"), "name": "again"}))
    step(client, "all docs", lambda: expect([row.id for row in db.all_docs(include_docs=True).rows] == ["mydoc-id"], "rows"))
    step(client, "changes", lambda: expect(["mydoc-id"] == [row["id"] for row in db.changes()["results"]], "changes"))

    def stream():
        seen = []
        with db.changes_stream(since=0, heartbeat=100) as rows:
            for row in rows:
                seen.append(row.get("id"))
                break
        expect(seen == ["mydoc-id"], f"changes {seen}")

    step(client, "continuous changes stream with heartbeat", stream)
    step(client, "delete doc", lambda: expect(db.delete(docid="mydoc-id", rev=db.rev("mydoc-id")), "not deleted"))
    step(client, "delete db", lambda: server.delete("py-couchdb3"))


CLIENTS = [
    ("couchdb", couchdb_python),
    ("pycouchdb", pycouchdb_client),
    ("ibmcloudant", ibmcloudant_client),
    ("aiocouch", aiocouch_client),
    ("couchdb3", couchdb3_client),
]


# MARK: server


def start_server(quire, folder, password_file):
    process = subprocess.Popen(
        [quire, "serve", folder, "--port", "0", "--create-databases", "--allow-delete",
         "--user", USER, "--password-file", password_file],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    found = {}

    def read():
        for line in process.stdout:
            match = re.search(r"Serving (http://\S+?)/?$", line.strip())
            if match and "url" not in found:
                found["url"] = match.group(1)
                ready.set()
        ready.set()

    ready = threading.Event()
    threading.Thread(target=read, daemon=True).start()
    ready.wait(60)
    if "url" not in found:
        process.kill()
        sys.exit("quire serve did not start")
    return process, found["url"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quire", default=".build/debug/quire")
    parser.add_argument("--only", help="run one client (couchdb, pycouchdb, ibmcloudant, aiocouch, couchdb3)")
    arguments = parser.parse_args()
    scratch = tempfile.mkdtemp(prefix="quire-clients-")
    folder = os.path.join(scratch, "data")
    os.mkdir(folder)
    password_file = os.path.join(scratch, "password")
    with open(password_file, "w") as file:
        file.write(PASSWORD + "\n")
    os.chmod(password_file, 0o600)
    process, url = start_server(arguments.quire, folder, password_file)
    try:
        for name, run in CLIENTS:
            if arguments.only and name != arguments.only:
                continue
            try:
                __import__(name)
            except ImportError:
                results.append((name, "import", False, "not installed"))
                continue
            run(url)
    finally:
        process.terminate()
        process.wait(30)
        shutil.rmtree(scratch, ignore_errors=True)
    for client, name, passed, detail in results:
        print(f"{'PASS' if passed else 'FAIL'}  {client:17} {name}{'' if passed else '  -- ' + detail}")
    failed = sum(1 for result in results if not result[2])
    print(f"{len(results) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
