#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""sig_source_cupy: analog.sig_source_c / sig_source_f made on the GPU, bit for bit.

The samples come from fixed_point_nco, which replays GNU Radio's fixed-point phase
accumulator and sine table, so swapping this block in for the CPU source changes nothing
downstream. Setters may be called from any thread while the flowgraph runs (GRC callbacks,
the "cmd" message port): a lock keeps each work() call on one set of parameters.
"""

import numbers
import threading

import numpy as np
import pmt
from gnuradio import analog

from ..cuda_python import default_device
from ..fixed_point_nco import fixed_point_nco
from ..python_blocks import sync_block
from .support import checked_positive, checked_real, message_text

_TYPES = {np.dtype(np.complex64): True, np.dtype(np.float32): False}
_BLOCK = "sig_source_cupy"
_WAVEFORMS = ("GR_CONST_WAVE", "GR_SIN_WAVE", "GR_COS_WAVE", "GR_SQR_WAVE", "GR_TRI_WAVE", "GR_SAW_WAVE")
_WAVEFORM_VALUES = {int(getattr(analog, name)) for name in _WAVEFORMS}


def _checked_waveform(waveform):
    allowed = "analog." + ", ".join(_WAVEFORMS[:-1]) + " or " + _WAVEFORMS[-1]
    try:
        value = int(waveform)
    except (TypeError, ValueError):
        raise TypeError(f"{_BLOCK}: waveform must be one of {allowed}, not {waveform!r}") from None
    if value not in _WAVEFORM_VALUES or isinstance(waveform, (bool, float)):
        raise ValueError(f"{_BLOCK}: waveform must be one of {allowed}, not {waveform!r}")
    return value


def _checked_offset(offset, complex_output):
    """A real offset for float32 output, a complex one for complex64; finite either way."""
    if complex_output:
        if isinstance(offset, bool) or not isinstance(offset, numbers.Number):
            raise TypeError(f"{_BLOCK}: offset must be a number, not {offset!r}")
        value = complex(offset)
        checked_real(_BLOCK, "offset", value.real)
        checked_real(_BLOCK, "offset", value.imag)
        return offset
    if isinstance(offset, numbers.Complex) and not isinstance(offset, numbers.Real):
        raise TypeError(f"{_BLOCK}: offset {offset!r} is complex; float32 output takes a real offset")
    return checked_real(_BLOCK, "offset", offset)


class sig_source_cupy(sync_block):
    """Signal source on the GPU, the same samples as analog.sig_source_c/f.

    Waveforms are analog.GR_SIN_WAVE, GR_COS_WAVE, GR_CONST_WAVE, GR_SQR_WAVE, GR_TRI_WAVE
    and GR_SAW_WAVE; dtype numpy.complex64 or numpy.float32. The "cmd" message port takes a
    dict with any of "freq", "ampl", "offset" and "phase", as analog's does.

    device: the GPU the block runs on (a CUDA ordinal), or default_device (-1).
    """

    def __init__(
        self,
        sampling_freq=1.0,
        waveform=analog.GR_COS_WAVE,
        frequency=1000.0,
        amplitude=1.0,
        offset=0.0,
        phase=0.0,
        dtype=np.complex64,
        device=default_device,
    ):
        dtype = np.dtype(dtype)
        if dtype not in _TYPES:
            raise ValueError(f"sig_source_cupy makes complex64 or float32 samples, not {dtype}")
        sampling_freq = checked_positive(_BLOCK, "sampling_freq", sampling_freq)
        waveform = _checked_waveform(waveform)
        frequency = checked_real(_BLOCK, "frequency", frequency)
        amplitude = checked_real(_BLOCK, "amplitude", amplitude)
        offset = _checked_offset(offset, _TYPES[dtype])
        phase = checked_real(_BLOCK, "phase", phase)
        sync_block.__init__(self, "sig_source_cupy", None, [dtype], device=device)
        self._complex = _TYPES[dtype]
        self._lock = threading.Lock()
        self._nco = fixed_point_nco(self.xp, sampling_freq, frequency)
        self._waveform = waveform
        self._amplitude = amplitude
        self._offset = offset
        self.set_phase(phase)
        self.message_port_register_in(pmt.intern("cmd"))
        self.set_msg_handler(pmt.intern("cmd"), self._handle_command)

    def work(self, input_items, output_items):
        out = output_items[0]
        with self._lock:
            self._nco.generate(self._waveform, len(out), self._amplitude, self._offset, self._complex, out=out)
        return len(out)

    def _handle_command(self, message):
        commands = {
            "freq": self.set_frequency,
            "ampl": self.set_amplitude,
            "offset": self.set_offset,
            "phase": self.set_phase,
        }
        # As GNU Radio's sig_source: a dict of commands, or one (key . value) pair. PMT_NIL
        # is an empty dict to pmt.is_dict() (GNU Radio's block dies on it).
        if pmt.is_dict(message) and not pmt.is_null(message):
            entries = []
            items = pmt.dict_items(message)
            while not pmt.is_null(items):
                entries.append(pmt.car(items))
                items = pmt.cdr(items)
        elif pmt.is_pair(message):
            entries = [message]
        else:
            self.logger.warn(
                f"cmd: expected a dict or a (key . value) pair with keys {sorted(commands)}, "
                f"got {message_text(message)}"
            )
            return
        for entry in entries:
            key, value = pmt.car(entry), pmt.cdr(entry)
            name = pmt.symbol_to_string(key) if pmt.is_symbol(key) else message_text(key)
            if name not in commands:
                self.logger.warn(f"cmd: unknown key {name!r}; known keys are {sorted(commands)}")
            elif not pmt.is_number(value):
                self.logger.warn(f"cmd: {name} ignored: the value must be a number, got {message_text(value)}")
            else:
                number = pmt.to_complex(value) if pmt.is_complex(value) else pmt.to_double(value)
                try:
                    commands[name](number)
                except (TypeError, ValueError) as error:
                    self.logger.warn(f"cmd: {name} ignored: {error}")

    def set_sampling_freq(self, sampling_freq):
        sampling_freq = checked_positive(_BLOCK, "sampling_freq", sampling_freq)
        with self._lock:
            self._nco.set_sampling_freq(sampling_freq)

    def set_frequency(self, frequency):
        frequency = checked_real(_BLOCK, "frequency", frequency)
        with self._lock:
            self._nco.set_frequency(frequency)

    def set_waveform(self, waveform):
        waveform = _checked_waveform(waveform)
        with self._lock:
            self._waveform = waveform

    def set_amplitude(self, amplitude):
        amplitude = checked_real(_BLOCK, "amplitude", amplitude)
        with self._lock:
            self._amplitude = amplitude

    def set_offset(self, offset):
        offset = _checked_offset(offset, self._complex)
        with self._lock:
            self._offset = offset

    def set_phase(self, phase):
        phase = checked_real(_BLOCK, "phase", phase)
        with self._lock:
            self._nco.set_phase(phase)

    def sampling_freq(self):
        return self._nco.sampling_freq()

    def frequency(self):
        return self._nco.frequency()

    def waveform(self):
        return self._waveform

    def amplitude(self):
        return self._amplitude

    def offset(self):
        return self._offset

    def phase(self):
        return self._nco.get_phase()
