# A stand-in for the two parts of the rgl gem mk_rate uses (no network for
# `gem install rgl`): an undirected adjacency graph (insertion-ordered
# vertices and neighbour sets) and its connected components, enumerated as
# RGL does: a depth-first search over the vertices in insertion order, each
# component's vertices in the order the search finishes them.
require 'set'
module RGL
  class AdjacencyGraph
    def initialize
      @adj = {}
    end
    def add_vertex(v)
      @adj[v] ||= Set.new
    end
    def add_edge(u, v)
      add_vertex(u); add_vertex(v)
      @adj[u].add(v); @adj[v].add(u)
    end
    def each_connected_component
      color = {}
      @adj.each_key do |s|
        next if color[s]
        comp = []
        visit = lambda do |u|
          color[u] = :gray
          @adj[u].each { |w| visit.call(w) unless color[w] }
          color[u] = :black
          comp << u
        end
        visit.call(s)
        yield comp
      end
    end
  end
end
