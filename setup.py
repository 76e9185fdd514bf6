"""pip install . : configures treedyn with CMake for the running Python, builds only the Python module
(target treedyn_python, which pulls in the compiled component) and ships the one extension file.

No network: CMake finds pybind11 through the running Python (pybind11.get_cmake_dir(), Debian's
python3-pybind11) or the system (pybind11-dev). TREEDYN_PIP_JOBS sets the parallel compile jobs (default 2);
TREEDYN_PIP_BUILD_DIR keeps the CMake build tree somewhere reusable (default: a folder under build/);
TREEDYN_PIP_CMAKE_ARGS adds CMake arguments (shell words, after the defaults, so they win).
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


def version():
    text = (ROOT / "include" / "treedyn" / "version.hpp").read_text()
    return re.search(r'#define TREEDYN_VERSION_STRING "([^"]+)"', text).group(1)


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build_dir = Path(os.environ.get("TREEDYN_PIP_BUILD_DIR", ROOT / "build" / "pip"))
        build_dir.mkdir(parents=True, exist_ok=True)
        configure = [
            "cmake", "-S", str(ROOT), "-B", str(build_dir),
            "-DCMAKE_BUILD_TYPE=Release",
            "-DTREEDYN_BUILD_TESTS=OFF", "-DTREEDYN_BUILD_EXAMPLES=OFF", "-DTREEDYN_BUILD_BENCHMARKS=OFF",
            "-DTREEDYN_BUILD_COMPILED=ON", "-DTREEDYN_BUILD_PYTHON=ON",
            f"-DPython3_EXECUTABLE={sys.executable}",
        ]
        try:
            import pybind11
            configure.append(f"-Dpybind11_DIR={pybind11.get_cmake_dir()}")
        except ImportError:
            pass  # CMake looks for pybind11-dev's package instead
        configure += shlex.split(os.environ.get("TREEDYN_PIP_CMAKE_ARGS", ""))
        jobs = os.environ.get("TREEDYN_PIP_JOBS", "2")
        subprocess.run(configure, check=True)
        subprocess.run(["cmake", "--build", str(build_dir), "--target", "treedyn_python", "-j", jobs], check=True)
        built = sorted(build_dir.glob("python/treedyn*" + (".pyd" if os.name == "nt" else ".so")))
        if not built:
            raise RuntimeError(f"treedyn: the CMake build produced no module under {build_dir / 'python'}")
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built[0], target)


setup(version=version(), ext_modules=[CMakeExtension("treedyn")], cmdclass={"build_ext": CMakeBuild}, zip_safe=False)
