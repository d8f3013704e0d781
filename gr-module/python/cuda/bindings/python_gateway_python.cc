/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// gnuradio.cuda.python_gateway: the C++ block behind a Python GPU block
// (gnuradio/cuda/python_blocks.py), which GNU Radio's scheduler calls. It enters Python
// once per work() call.
//
// GNU Radio's own gateway (gr.sync_block and its siblings) enters Python for forecast()
// too, which the scheduler asks before every call, and again for every halving of the
// call while the input falls short; and it is not a fixed-rate block, so the scheduler
// does not size a call to the input there is. This gateway answers forecast() itself
// unless the Python class defines its own, is a fixed-rate block for cuda.sync_block,
// decim_block and interp_block (as gr::sync_block, sync_decimator and sync_interpolator
// are), hands Python the port addresses as integers, and consumes a fixed-rate block's
// input after work() returns, reporting it to libgrcuda first (as
// gr::cuda::cuda_sync_block does). Messages, tags, start() and stop() work as in GNU
// Radio's gateway.

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gnuradio/block.h>
#include <gnuradio/cuda/cuda_block.h>
#include <gnuradio/io_signature.h>
#include <gnuradio/logger.h>
#include <gnuradio/tags.h>
#include <pmt/pmt.h>
#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace py = pybind11;

namespace {

class python_gateway : public gr::block, public gr::cuda::gpu_block
{
public:
    //! \p fixed_rate: a sync, decimating or interpolating block (\p decim input items per
    //! \p interp output items); \p python_forecast: the Python class has its own
    //! forecast(), asked through its handle_forecast(); \p device: the block's device
    //! (an ordinal, or gr::cuda::default_device).
    python_gateway(const py::handle& py_handle,
                   const std::string& name,
                   gr::io_signature::sptr in_sig,
                   gr::io_signature::sptr out_sig,
                   bool fixed_rate,
                   int decim,
                   int interp,
                   bool python_forecast,
                   int device)
        : gr::block(name, in_sig, out_sig),
          d_py_handle(py_handle),
          d_decim(decim),
          d_interp(interp),
          d_python_forecast(python_forecast),
          d_context(device)
    {
        if (decim < 1 || interp < 1) {
            throw std::invalid_argument(name + ": decim and interp must be at least 1");
        }
        set_fixed_rate(fixed_rate);
    }

    gr::cuda::block_context& context() { return d_context; }

    int device_ordinal() const override { return d_context.device_ordinal(); }

    //! Refuses a flowgraph that cannot run the block (block_context::check_topology).
    bool check_topology(int ninputs, int noutputs) override
    {
        d_context.check_topology(*this);
        return gr::block::check_topology(ninputs, noutputs);
    }

    void forecast(int noutput_items, gr_vector_int& ninput_items_required) override
    {
        if (d_python_forecast) {
            // handle_forecast() checks forecast()'s result and ends the block on a bad
            // one (python_blocks.py); this only keeps a result that still cannot be used
            // (a handle_forecast() overridden, or raising) from crashing or killing the
            // thread: the block ends, as after a failed work().
            const size_t ninputs = ninput_items_required.size();
            py::gil_scoped_acquire acquire;
            try {
                auto required =
                    d_py_handle.attr("handle_forecast")(noutput_items, ninputs)
                        .cast<std::vector<int>>();
                if (required.size() != ninputs) {
                    throw std::length_error(
                        "handle_forecast() returned " + std::to_string(required.size()) +
                        " counts for " + std::to_string(ninputs) + " inputs");
                }
                ninput_items_required = std::move(required);
            } catch (const std::exception& error) {
                d_logger->error("forecast() failed; ending the flowgraph: {}",
                                error.what());
                d_forecast_failed = true;
                std::fill(ninput_items_required.begin(), ninput_items_required.end(), 0);
            }
        } else if (fixed_rate()) {
            std::fill(ninput_items_required.begin(),
                      ninput_items_required.end(),
                      fixed_rate_noutput_to_ninput(noutput_items));
        } else {
            gr::block::forecast(noutput_items, ninput_items_required);
        }
    }

    int fixed_rate_noutput_to_ninput(int noutput_items) override
    {
        if (!fixed_rate()) {
            return gr::block::fixed_rate_noutput_to_ninput(noutput_items);
        }
        return static_cast<int>(int64_t{ noutput_items } * d_decim / d_interp) +
               static_cast<int>(history()) - 1;
    }

    int fixed_rate_ninput_to_noutput(int ninput_items) override
    {
        if (!fixed_rate()) {
            return gr::block::fixed_rate_ninput_to_noutput(ninput_items);
        }
        const int64_t usable =
            std::max(0, ninput_items - static_cast<int>(history()) + 1);
        return static_cast<int>(usable * d_interp / d_decim);
    }

    int general_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items) override
    {
        if (d_forecast_failed) {
            return WORK_DONE;
        }
        d_context.read_from_mirrors(input_items);
        int result;
        {
            py::gil_scoped_acquire acquire;
            // A fixed-rate block's inputs all hold what noutput_items needs; a general
            // block gets what each input has.
            py::object ninputs =
                fixed_rate()
                    ? py::object(py::int_(fixed_rate_noutput_to_ninput(noutput_items)))
                    : py::object(py::cast(ninput_items));
            result = d_py_handle
                         .attr(fixed_rate() ? "handle_work" : "handle_general_work")(
                             noutput_items,
                             ninputs,
                             addresses(input_items),
                             addresses(output_items))
                         .cast<int>();
        }
        if (fixed_rate() && result > 0) {
            // Nothing more is enqueued before GNU Radio posts the outputs: one event
            // marks the reads and the posts (block_context::end_work()).
            const int consumed =
                fixed_rate_noutput_to_ninput(result) - (static_cast<int>(history()) - 1);
            d_context.end_work(consumed);
            consume_each(consumed);
        }
        return result;
    }

    //! gr::block::consume(), after telling the input's buffer that the work reading the
    //! items is enqueued, as every GPU block does before consuming.
    void consume_reported(int which_input, int how_many_items)
    {
        if (how_many_items > 0) {
            d_context.report_consumed(which_input, how_many_items);
        }
        consume(which_input, how_many_items);
    }

    void consume_each_reported(int how_many_items)
    {
        for (int port = 0; port < detail()->ninputs(); port++) {
            consume_reported(port, how_many_items);
        }
    }

    bool start() override
    {
        d_forecast_failed = false;
        return call_start_or_stop("start");
    }

    bool stop() override { return call_start_or_stop("stop"); }

    // GNU Radio's gateway's public versions of gr::block's protected tag methods, with
    // the port checked: GNU Radio's index past its ports crashes or hangs the process.
    void add_tag(unsigned int which_output, const gr::tag_t& tag)
    {
        require_port("add_item_tag", which_output, false);
        add_item_tag(which_output, tag);
    }

    void add_tag(unsigned int which_output,
                 uint64_t abs_offset,
                 const pmt::pmt_t& key,
                 const pmt::pmt_t& value,
                 const pmt::pmt_t& srcid)
    {
        require_port("add_item_tag", which_output, false);
        add_item_tag(which_output, abs_offset, key, value, srcid);
    }

    std::vector<gr::tag_t>
    tags_in_range(unsigned int which_input, uint64_t abs_start, uint64_t abs_end)
    {
        require_port("get_tags_in_range", which_input, true);
        std::vector<gr::tag_t> tags;
        get_tags_in_range(tags, which_input, abs_start, abs_end);
        return tags;
    }

    std::vector<gr::tag_t> tags_in_range(unsigned int which_input,
                                         uint64_t abs_start,
                                         uint64_t abs_end,
                                         const pmt::pmt_t& key)
    {
        require_port("get_tags_in_range", which_input, true);
        std::vector<gr::tag_t> tags;
        get_tags_in_range(tags, which_input, abs_start, abs_end, key);
        return tags;
    }

    std::vector<gr::tag_t>
    tags_in_window(unsigned int which_input, uint64_t rel_start, uint64_t rel_end)
    {
        require_port("get_tags_in_window", which_input, true);
        std::vector<gr::tag_t> tags;
        get_tags_in_window(tags, which_input, rel_start, rel_end);
        return tags;
    }

    std::vector<gr::tag_t> tags_in_window(unsigned int which_input,
                                          uint64_t rel_start,
                                          uint64_t rel_end,
                                          const pmt::pmt_t& key)
    {
        require_port("get_tags_in_window", which_input, true);
        std::vector<gr::tag_t> tags;
        get_tags_in_window(tags, which_input, rel_start, rel_end, key);
        return tags;
    }

    //! Throws IndexError (std::out_of_range) unless \p port is one of the block's
    //! inputs (\p input) or outputs in the running flowgraph, as produce() and consume()
    //! refuse bad ports.
    void require_port(const char* method, unsigned int port, bool input) const
    {
        const gr::block_detail_sptr running = detail();
        if (!running) {
            throw std::runtime_error(name() + ": " + method +
                                     "() is only valid while the flowgraph runs");
        }
        const int ports = input ? running->ninputs() : running->noutputs();
        if (port >= static_cast<unsigned int>(ports)) {
            const std::string kind = input ? "input" : "output";
            throw std::out_of_range(name() + ": " + method + "(" + std::to_string(port) +
                                    ", ...) names no " + kind + " port; the block has " +
                                    std::to_string(ports) + " " + kind + " port(s)");
        }
    }

    //! The Python method \p handler_name handles messages to \p which_port.
    void set_msg_handler_pybind(const pmt::pmt_t& which_port,
                                const std::string& handler_name)
    {
        if (msg_queue.find(which_port) == msg_queue.end()) {
            throw std::runtime_error(
                name() + ": set_msg_handler() names no input message port " +
                pmt::write_string(which_port) +
                "; register it first with message_port_register_in()");
        }
        d_msg_handlers[which_port] = handler_name;
    }

    gr::logger_ptr logger() const { return d_logger; }

private:
    //! Calls the Python block's start() or stop() (\p method). GNU Radio 3.10 calls both
    //! in the block's thread outside any catch: an exception from start() ended only the
    //! thread (the flowgraph waited forever), one from stop() aborted the process. So an
    //! exception is kept and logged by the block's _fail(), as one from work() is, and
    //! ends the flowgraph. GNU Radio ignores the result; any Python value is taken.
    bool call_start_or_stop(const char* method)
    {
        py::gil_scoped_acquire acquire;
        try {
            return py::bool_(d_py_handle.attr(method)());
        } catch (py::error_already_set& error) {
            d_py_handle.attr("_fail")(error.value(), std::string(method) + "()");
            detail()->set_done(true);
            return false;
        }
    }

    template <class Pointer>
    static py::tuple addresses(const std::vector<Pointer>& items)
    {
        py::tuple result(items.size());
        for (size_t port = 0; port < items.size(); port++) {
            result[port] = py::int_(reinterpret_cast<uintptr_t>(items[port]));
        }
        return result;
    }

    bool has_msg_handler(pmt::pmt_t which_port) override
    {
        return d_msg_handlers.count(which_port) > 0 ||
               gr::block::has_msg_handler(which_port);
    }

    void dispatch_msg(pmt::pmt_t which_port, pmt::pmt_t msg) override
    {
        const auto handler = d_msg_handlers.find(which_port);
        if (handler == d_msg_handlers.end()) {
            gr::block::dispatch_msg(which_port, msg);
            return;
        }
        py::gil_scoped_acquire acquire;
        d_py_handle.attr("handle_message")(handler->second, msg);
    }

    // Not a reference: the Python block holds this gateway (as with GNU Radio's gateway,
    // the Python block must outlive the flowgraph's run).
    py::handle d_py_handle;
    const int64_t d_decim;
    const int64_t d_interp;
    const bool d_python_forecast;
    bool d_forecast_failed = false; // handle_forecast() failed: general_work() ends
    gr::cuda::block_context d_context;
    std::map<pmt::pmt_t, std::string, pmt::comparator> d_msg_handlers;
};

} // namespace

void bind_python_gateway(py::module& m)
{
    m.def(
        "_cpp_owners",
        [](const gr::basic_block_sptr& block) {
            // The argument is one more owner, for the time of this call.
            return block.use_count() - 1;
        },
        py::arg("block"),
        "How many owners a block's C++ object has (a Python block's gateway): 1 when "
        "only its Python block holds it, more while a flowgraph does (lifetime.py).");
    // pybind11 passes a python_gateway to a method bound for gr::block (nitems_read(),
    // ...) only after trying every class of every loaded module that names gr::block as a
    // base, in the order they were bound: tens of microseconds once GNU Radio's block
    // modules are loaded. The methods a work() call may use are bound for python_gateway
    // itself.
    using tags =
        std::vector<gr::tag_t> (python_gateway::*)(unsigned int, uint64_t, uint64_t);
    using keyed_tags = std::vector<gr::tag_t> (python_gateway::*)(
        unsigned int, uint64_t, uint64_t, const pmt::pmt_t&);
    py::class_<python_gateway,
               gr::block,
               gr::basic_block,
               std::shared_ptr<python_gateway>>(
        m,
        "python_gateway",
        "The C++ block behind a Python GPU block (cuda.sync_block, decim_block, "
        "interp_block, basic_block): GNU Radio's scheduler calls it, and it calls the "
        "Python block's handle_work() (fixed-rate blocks) or handle_general_work() once "
        "per work() call, and its handle_forecast() only where the Python class has its "
        "own forecast().")
        .def(py::init([](const py::object& block,
                         const std::string& name,
                         gr::io_signature::sptr in_sig,
                         gr::io_signature::sptr out_sig,
                         bool fixed_rate,
                         int decim,
                         int interp,
                         bool python_forecast,
                         int device) {
                 return std::make_shared<python_gateway>(block,
                                                         name,
                                                         in_sig,
                                                         out_sig,
                                                         fixed_rate,
                                                         decim,
                                                         interp,
                                                         python_forecast,
                                                         device);
             }),
             py::arg("block"),
             py::arg("name"),
             py::arg("in_sig"),
             py::arg("out_sig"),
             py::arg("fixed_rate"),
             py::arg("decim"),
             py::arg("interp"),
             py::arg("python_forecast"),
             py::arg("device") = gr::cuda::default_device)
        .def("context",
             &python_gateway::context,
             py::return_value_policy::reference_internal,
             "The block's stream and its registration with its port buffers.")
        .def(
            "forecast",
            [](python_gateway& self, int noutput_items, int ninputs) {
                gr_vector_int required(ninputs);
                self.forecast(noutput_items, required);
                return required;
            },
            py::arg("noutput_items"),
            py::arg("ninputs"),
            "The input items the block needs for noutput_items output items, per input, "
            "as the scheduler gets them.")
        .def(
            "consume",
            [](python_gateway& self, int which_input, int how_many_items) {
                self.consume_reported(which_input, how_many_items);
            },
            py::arg("which_input"),
            py::arg("how_many_items"),
            "gr::block::consume(), after telling the input's buffer that the work "
            "reading "
            "the items is enqueued.")
        .def(
            "consume_each",
            [](python_gateway& self, int how_many_items) {
                self.consume_each_reported(how_many_items);
            },
            py::arg("how_many_items"),
            "consume() on every input.")
        .def(
            "produce",
            [](python_gateway& self, int which_output, int how_many_items) {
                self.produce(which_output, how_many_items);
            },
            py::arg("which_output"),
            py::arg("how_many_items"))
        .def(
            "nitems_read",
            [](python_gateway& self, unsigned int which_input) {
                return self.nitems_read(which_input);
            },
            py::arg("which_input"))
        .def(
            "nitems_written",
            [](python_gateway& self, unsigned int which_output) {
                return self.nitems_written(which_output);
            },
            py::arg("which_output"))
        .def("history", [](python_gateway& self) { return self.history(); })
        .def("add_item_tag",
             static_cast<void (python_gateway::*)(unsigned int, const gr::tag_t&)>(
                 &python_gateway::add_tag),
             py::arg("which_output"),
             py::arg("tag"))
        .def("add_item_tag",
             static_cast<void (python_gateway::*)(unsigned int,
                                                  uint64_t,
                                                  const pmt::pmt_t&,
                                                  const pmt::pmt_t&,
                                                  const pmt::pmt_t&)>(
                 &python_gateway::add_tag),
             py::arg("which_output"),
             py::arg("abs_offset"),
             py::arg("key"),
             py::arg("value"),
             py::arg("srcid") = pmt::PMT_F)
        .def("get_tags_in_range",
             static_cast<tags>(&python_gateway::tags_in_range),
             py::arg("which_input"),
             py::arg("abs_start"),
             py::arg("abs_end"))
        .def("get_tags_in_range",
             static_cast<keyed_tags>(&python_gateway::tags_in_range),
             py::arg("which_input"),
             py::arg("abs_start"),
             py::arg("abs_end"),
             py::arg("key"))
        .def("get_tags_in_window",
             static_cast<tags>(&python_gateway::tags_in_window),
             py::arg("which_input"),
             py::arg("rel_start"),
             py::arg("rel_end"))
        .def("get_tags_in_window",
             static_cast<keyed_tags>(&python_gateway::tags_in_window),
             py::arg("which_input"),
             py::arg("rel_start"),
             py::arg("rel_end"),
             py::arg("key"))
        .def("set_msg_handler_pybind",
             &python_gateway::set_msg_handler_pybind,
             py::arg("which_port"),
             py::arg("handler_name"))
        .def_property_readonly("logger", &python_gateway::logger);
}
