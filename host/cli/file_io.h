// What every nnfab command does with its files and stdout.
#pragma once

#include <string>

#include "model/files.h"

namespace nnfab::cli {

using nnfab::checkWritable;
using nnfab::readFile;

// Flushes stdout at the end of a command: a result that could not be written
// (a full disk, a closed pipe) turns `exitCode` into kExitUsage with a message,
// so no result is lost silently.
int finishStdout(int exitCode);

// Prints "nnfab: <message>" to stderr and returns kExitUsage.
int usageError(const std::string& message);

}  // namespace nnfab::cli
