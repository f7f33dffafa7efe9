"""miners.effects: effect hits (with lines) and hazards from real-looking sources, per language."""

from __future__ import annotations

import textwrap

from miners.effects import JS_CALLS, PY_CALLS, extract_effects, lookup, sql_effects
from miners.facts import ParsedFile
from miners.parsing import parse


def scan(language: str, source: str, path: str = "src/mod"):
    data = textwrap.dedent(source).lstrip("\n").encode()
    return extract_effects(ParsedFile(path, language, data, parse(language, data)))


def hits(effects):
    """{(line, effect)} of the hits."""
    return {(h.line, h.effect) for h in effects}


def hazards(found):
    return {(h.line, h.kind) for h in found}


# --- tables -----------------------------------------------------------------------------------------------


def test_wildcard_rows_match_one_lowercase_segment_only():
    assert lookup(PY_CALLS, "requests.post") is PY_CALLS["requests.*"]
    assert lookup(PY_CALLS, "requests.HTTPError") is None  # exceptions and classes are not calls that connect
    assert lookup(PY_CALLS, "requests.utils.quote") is None
    assert lookup(PY_CALLS, "os.execvp") is PY_CALLS["os.exec*"]
    assert lookup(JS_CALLS, "child_process.execFileSync") is JS_CALLS["child_process.*"]


def test_sql_text_decides_read_or_write():
    assert sql_effects("  SELECT * FROM t", True) == [("database.read", 0.85)]
    assert sql_effects("insert into t values (1)", True) == [("database.write", 0.85)]
    assert sql_effects("WITH x AS (SELECT 1) DELETE FROM t", True)[0][0] == "database.write"
    assert sql_effects(None, True) == [("database.read", 0.3), ("database.write", 0.3)]
    assert sql_effects(None, False) == []


# --- Python -----------------------------------------------------------------------------------------------


def test_python_filesystem_open_modes_pathlib_shutil_os():
    effects, _ = scan("python", '''
        import os
        import shutil
        from pathlib import Path

        def work(path, mode):
            with open(path) as fh:
                fh.read()
            open("out.txt", "w").write("x")
            open(path, mode="a+")
            open(path, mode)
            Path("notes.md").read_text()
            Path("out.md").write_text("hi")
            shutil.rmtree("build")
            os.remove("stale.lock")
            os.makedirs("cache", exist_ok=True)
        ''')
    assert hits(effects) == {
        (6, "filesystem.read"), (8, "filesystem.write"), (9, "filesystem.read"), (9, "filesystem.write"),
        (10, "filesystem.read"), (10, "filesystem.write"), (11, "filesystem.read"), (12, "filesystem.write"),
        (13, "filesystem.write"), (14, "filesystem.write"), (15, "filesystem.write")}
    by_line = {h.line: h for h in effects}
    assert by_line[6].call == "open" and by_line[13].call == "shutil.rmtree"
    assert [h.confidence for h in effects if h.line == 10] == [0.5, 0.5]  # a mode that is not literal: either


def test_python_network_process_and_git_through_aliases():
    effects, _ = scan("python", '''
        import subprocess as sp
        from os import system
        from urllib.request import urlopen

        import httpx
        import requests

        def sync(msg):
            requests.get("https://example.com", timeout=5)
            httpx.post("https://example.com/api", json={})
            urlopen("https://example.com")
            sp.run(["git", "commit", "-m", msg], check=True)
            sp.check_call("git push origin main", shell=True)
            system("make")
            requests.HTTPError("not a call that connects")
        ''')
    assert hits(effects) == {
        (9, "network.connect"), (10, "network.connect"), (11, "network.connect"),
        (12, "process.spawn"), (12, "git.commit"), (13, "process.spawn"), (13, "git.push"), (13, "network.connect"),
        (14, "process.spawn")}
    assert {h.call for h in effects if h.line == 12} == {"sp.run"}


def test_python_environment_and_secrets():
    effects, _ = scan("python", '''
        import os
        from os import environ

        import keyring
        from dotenv import load_dotenv

        load_dotenv()
        token = os.environ["GITHUB_TOKEN"]
        home = os.environ.get("HOME")
        os.environ["EXPORTED"] = "1"
        key = os.getenv("OPENAI_API_KEY")
        user = environ["USER"]
        password = keyring.get_password("svc", "me")
        with open(".env") as fh:
            fh.read()
        ''')
    assert hits(effects) == {
        (7, "environment.read"), (7, "secrets.read"), (7, "filesystem.read"),
        (8, "environment.read"), (8, "secrets.read"), (9, "environment.read"),
        (11, "environment.read"), (11, "secrets.read"), (12, "environment.read"), (13, "secrets.read"),
        (14, "filesystem.read"), (14, "secrets.read")}
    secrets = {h.line: h.confidence for h in effects if h.effect == "secrets.read"}
    assert secrets[13] > secrets[8]  # keyring is unambiguous; a secret-looking name is a guess


def test_python_database_email_and_gitpython():
    effects, _ = scan("python", '''
        import smtplib
        import sqlite3

        import git

        def store(query, rows):
            conn = sqlite3.connect("app.db")
            cur = conn.cursor()
            cur.execute("SELECT id FROM users WHERE name = ?", ("a",))
            cur.execute(f"INSERT INTO users VALUES ({rows})")
            cur.execute(query)
            cur.executemany("UPDATE users SET a = ?", rows)
            smtp = smtplib.SMTP("localhost")
            smtp.sendmail("a@x", ["b@x"], "hello")
            repo = git.Repo(".")
            repo.index.commit("update data")
            repo.remote("origin").push()
        ''')
    found = hits(effects)
    assert {(9, "database.read"), (10, "database.write"), (11, "database.read"), (11, "database.write"),
            (12, "database.write"), (13, "email.send"), (13, "network.connect"), (14, "email.send"),
            (16, "git.commit"), (17, "git.push")} <= found
    assert (9, "database.write") not in found and (10, "database.read") not in found
    confidence = {(h.line, h.effect): h.confidence for h in effects}
    assert confidence[(11, "database.read")] < confidence[(9, "database.read")]


def test_python_execute_without_a_database_import_is_not_a_database_effect():
    effects, _ = scan("python", '''
        def run(executor, task):
            executor.execute(task)
        ''')
    assert effects == []


def test_python_hazards():
    _, found = scan("python", '''
        import ctypes
        import importlib
        from re import compile

        def load(name, attr, code, obj):
            eval("1 + 1")
            exec(code)
            importlib.import_module(name)
            importlib.import_module("json")
            getattr(obj, attr)
            getattr(obj, "known")
            __import__(name)
            ctypes.CDLL("libc.so.6")
            compile("a+")
        ''')
    assert hazards(found) == {(1, "ffi"), (6, "eval"), (7, "eval"), (8, "dynamic-import"), (10, "reflection"),
                              (12, "dynamic-import"), (13, "ffi")}


# --- JavaScript / TypeScript ------------------------------------------------------------------------------


def test_js_filesystem_network_process_through_imports_and_requires():
    effects, _ = scan("typescript", '''
        import fs from "node:fs";
        import { readFile } from "fs/promises";
        import { execSync, spawn } from "child_process";
        import axios from "axios";
        const cp = require("child_process");
        const { request } = require("https");

        export async function main(msg: string) {
          fs.readFileSync("a.txt", "utf8");
          await readFile("b.txt");
          fs.writeFileSync("c.txt", "x");
          await fs.promises.mkdir("d", { recursive: true });
          fs.createReadStream("e.log");
          await fetch("https://example.com");
          await axios.get("https://example.com/api");
          request("https://example.com");
          execSync(`git commit -m "${msg}"`);
          spawn("git", ["push", "origin", "main"]);
          cp.exec("ls -la");
        }
        ''', path="src/main.ts")
    assert hits(effects) == {
        (9, "filesystem.read"), (10, "filesystem.read"), (11, "filesystem.write"), (12, "filesystem.write"),
        (13, "filesystem.read"), (14, "network.connect"), (15, "network.connect"), (16, "network.connect"),
        (17, "process.spawn"), (17, "git.commit"), (18, "process.spawn"), (18, "git.push"), (18, "network.connect"),
        (19, "process.spawn")}
    assert {h.line: h.call for h in effects}[12] == "fs.promises.mkdir"


def test_js_environment_secrets_and_dotenv():
    effects, _ = scan("javascript", '''
        require("dotenv").config();
        const token = process.env.GITHUB_TOKEN;
        const home = process.env["HOME"];
        process.env.NODE_ENV = "production";
        const { DB_PASSWORD, PORT } = process.env;
        const keytar = require("keytar");
        keytar.getPassword("svc", "me");
        ''')
    assert hits(effects) == {
        (1, "environment.read"), (1, "secrets.read"), (1, "filesystem.read"), (2, "environment.read"),
        (2, "secrets.read"), (3, "environment.read"), (5, "environment.read"), (5, "secrets.read"),
        (7, "secrets.read")}


def test_js_databases_email_and_simple_git():
    effects, _ = scan("javascript", '''
        const { Pool } = require("pg");
        const nodemailer = require("nodemailer");
        const simpleGit = require("simple-git");
        const mongoose = require("mongoose");

        async function run(id, query) {
          const pool = new Pool();
          await pool.query("SELECT * FROM users WHERE id = $1", [id]);
          await pool.query(`DELETE FROM sessions WHERE user_id = ${id}`);
          await pool.query(query);
          await User.findOne({ _id: id });
          await User.updateMany({}, { active: false });
          const mail = nodemailer.createTransport({ host: "smtp.example.com" });
          await mail.sendMail({ to: "a@example.com", text: "hi" });
          const git = simpleGit();
          await git.commit("release");
          await git.push("origin", "main");
        }
        ''')
    found = hits(effects)
    assert {(8, "database.read"), (9, "database.write"), (10, "database.read"), (10, "database.write"),
            (11, "database.read"), (12, "database.write"), (13, "email.send"), (14, "email.send"),
            (16, "git.commit"), (17, "git.push")} <= found
    assert (8, "database.write") not in found


def test_js_prisma_and_sql_tagged_templates():
    effects, _ = scan("typescript", '''
        import { PrismaClient } from "@prisma/client";
        import postgres from "postgres";
        const prisma = new PrismaClient();
        const sql = postgres();

        export async function q(id: number) {
          await prisma.user.findMany({ where: { id } });
          await prisma.user.create({ data: { id } });
          await sql`UPDATE users SET seen = now() WHERE id = ${id}`;
          await prisma.$queryRaw`SELECT 1`;
        }
        ''', path="src/db.ts")
    assert {(7, "database.read"), (8, "database.write"), (9, "database.write"), (10, "database.read")} <= hits(
        effects)


def test_js_method_names_without_the_library_are_not_effects():
    effects, _ = scan("javascript", '''
        const list = [];
        list.find((x) => x);
        cache.query("SELECT looks like sql but nothing imports a driver");
        store.commit("mutation");
        ''')
    assert effects == []


def test_js_hazards():
    _, found = scan("javascript", '''
        const ffi = require("ffi-napi");
        const addon = require("./build/Release/addon.node");
        const bindings = require("bindings");

        async function load(name, src) {
          eval(src);
          new Function("a", "return a");
          await import(name);
          await import("./static.js");
          require(name);
          require("./static");
          bindings("native");
          setTimeout("alert(1)", 10);
          setTimeout(() => {}, 10);
        }
        ''')
    assert hazards(found) == {(1, "ffi"), (2, "native-addon"), (3, "native-addon"), (6, "eval"), (7, "eval"),
                              (8, "dynamic-import"), (10, "dynamic-import"), (12, "native-addon"), (13, "eval")}


def test_tsx_is_scanned_like_typescript():
    effects, _ = scan("tsx", '''
        import fs from "fs";
        export const View = () => <div>{fs.readFileSync("a.txt", "utf8")}</div>;
        ''', path="src/view.tsx")
    assert hits(effects) == {(2, "filesystem.read")}


# --- Go ---------------------------------------------------------------------------------------------------


def test_go_effects_and_hazards():
    effects, found = scan("go", '''
        package main

        import (
            "database/sql"
            "net/http"
            "os"
            "os/exec"
        )

        // #include <stdio.h>
        import "C"

        func main() {
            os.ReadFile("config.json")
            os.WriteFile("out.json", nil, 0o644)
            http.Get("https://example.com")
            exec.Command("git", "push", "origin").Run()
            os.Getenv("DB_PASSWORD")
            var db *sql.DB
            db.Query("SELECT id FROM t")
            db.Exec("DELETE FROM t")
        }
        ''', path="main.go")
    assert hits(effects) == {
        (14, "filesystem.read"), (15, "filesystem.write"), (16, "network.connect"), (17, "process.spawn"),
        (17, "git.push"), (17, "network.connect"), (18, "environment.read"), (18, "secrets.read"),
        (20, "database.read"), (21, "database.write")}
    assert hazards(found) == {(11, "ffi")}


def test_hits_carry_start_bytes_for_attribution_and_come_in_source_order():
    source = 'import os\n\ndef a():\n    os.remove("x")\n'
    effects, _ = scan("python", source)
    assert [(h.effect, h.line, h.start_byte) for h in effects] == [
        ("filesystem.write", 4, source.index('os.remove'))]


def test_unsupported_language_gives_nothing():
    assert scan("rust", 'fn main() { std::fs::remove_file("x"); }') == ([], [])
